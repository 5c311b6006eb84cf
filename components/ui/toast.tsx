"use client";
// Short confirmations and failures, announced to screen readers through a polite live region.
import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { cn } from "./cn";

type Tone = "success" | "error" | "info";
interface Toast {
  id: number;
  tone: Tone;
  message: string;
  detail?: string;
}

const ToastContext = createContext<(t: Omit<Toast, "id">) => void>(() => {});

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((t: Omit<Toast, "id">) => {
    const id = nextId++;
    setToasts((all) => [...all, { ...t, id }]);
    setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), t.tone === "error" ? 8000 : 4000);
  }, []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.tone === "error" ? "alert" : "status"}
            className={cn(
              "pointer-events-auto w-full max-w-sm rounded-lg px-4 py-3 text-sm shadow-lg ring-1",
              t.tone === "success" && "bg-emerald-50 text-emerald-900 ring-emerald-200",
              t.tone === "error" && "bg-red-50 text-red-900 ring-red-200",
              t.tone === "info" && "bg-white text-zinc-900 ring-zinc-200",
            )}
          >
            <p className="font-medium">{t.message}</p>
            {t.detail && <p className="mt-0.5 text-xs break-all opacity-80">{t.detail}</p>}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
