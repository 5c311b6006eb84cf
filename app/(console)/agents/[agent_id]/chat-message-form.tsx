"use client";
// The test console's message field: Enter sends, Shift+Enter starts a new line; a message over the
// body limit is refused here with its text kept; the hint names the session the next message goes to.
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/field";
import { Mono } from "@/components/ui/misc";

export function ChatMessageForm({
  inputId,
  message,
  onMessage,
  tooLarge,
  sessionId,
  pending,
  onSubmit,
}: {
  inputId: string;
  message: string;
  onMessage: (text: string) => void;
  tooLarge: string | null;
  sessionId: string | null;
  pending: boolean;
  onSubmit: () => void;
}) {
  const hintId = `${inputId}-hint`;
  const limitId = `${inputId}-limit`;
  return (
    <form
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="min-w-0 flex-1 space-y-1">
        <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800">
          Message
        </label>
        <Textarea
          id={inputId}
          rows={2}
          value={message}
          aria-describedby={tooLarge ? `${hintId} ${limitId}` : hintId}
          aria-invalid={tooLarge ? true : undefined}
          invalid={Boolean(tooLarge)}
          onChange={(e) => onMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              onSubmit();
            }
          }}
        />
        {tooLarge && (
          <p id={limitId} role="alert" className="text-xs font-medium text-red-700">
            {tooLarge}
          </p>
        )}
        <p id={hintId} className="text-xs text-zinc-600">
          Enter sends, Shift+Enter starts a new line.
          {sessionId ? (
            <>
              {" "}
              Continuing session <Mono>{sessionId}</Mono>.
            </>
          ) : (
            " The first reply starts a new draft session."
          )}
        </p>
      </div>
      <Button type="submit" disabled={pending || !message.trim()} className="sm:mb-6">
        {pending ? "Sending…" : "Send"}
      </Button>
    </form>
  );
}
