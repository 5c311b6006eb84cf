// State that must exist once per process. Next bundles lib/ into several chunks (the route handlers,
// the worker started by instrumentation, server.ts its own file) and its development server reloads
// modules, so a module-level `let` can exist more than once. Such state lives on globalThis, always
// through these two functions, under one prefix (`__awhs_`, for Agent Webhook Service).

export interface ProcessSlot<T> {
  get(): T | undefined;
  /** `undefined` empties the slot. */
  set(value: T | undefined): void;
}

const PREFIX = "__awhs_";
const store = globalThis as unknown as Record<string, unknown>;

/** The slot `name` of this process: read and written by every bundle alike. */
export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = PREFIX + name;
  return {
    get: () => store[key] as T | undefined,
    set: (value) => {
      if (value === undefined) delete store[key];
      else store[key] = value;
    },
  };
}

/** The process's one `name`, made by `make` on first use. */
export function processOnce<T>(name: string, make: () => T): T {
  const slot = processSlot<T>(name);
  let value = slot.get();
  if (value === undefined) {
    value = make();
    slot.set(value);
  }
  return value;
}
