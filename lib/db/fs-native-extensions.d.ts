// The part of fs-native-extensions (v1) that lib/db/lock.ts uses; the package ships no types.
declare module "fs-native-extensions" {
  /**
   * Requests an advisory lock on the open file `fd` without waiting: true when granted, false when
   * another open file description holds a conflicting one (in any process, this one included).
   * `length` 0 locks from `offset` to the end of the file; the lock is exclusive unless `shared`.
   */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
  /** Releases a lock held through `fd` (closing the descriptor releases it too). */
  export function unlock(fd: number, offset?: number, length?: number): void;
}
