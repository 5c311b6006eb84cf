// Outgoing email over SMTP (nodemailer), when SMTP_URL is set: invitation links. Sending is
// best effort: a failure is logged (without the message's secrets or the SMTP credentials) and
// reported to the caller as `false`, never thrown.
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "./env";
import { log } from "./log";
import { processSlot } from "./process-state";

/** Bounds of one send, so that a dead SMTP server cannot hold the admin's request for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const current = processSlot<{ url: string; transport: Transporter }>("mail");

function transport(url: string): Transporter {
  let mail = current.get();
  if (mail?.url !== url) current.set((mail = { url, transport: nodemailer.createTransport({ url, ...TIMEOUTS }) }));
  return mail.transport;
}

/** `text` with every secret replaced: error messages may quote what was sent. */
const scrub = (text: string, secrets: string[]) =>
  secrets.reduce((t, s) => (s ? t.split(s).join("[redacted]") : t), text);

/** The SMTP URL and its password, as written and decoded (an error may quote either). */
function credentialsOf(url: string): string[] {
  const password = URL.canParse(url) ? new URL(url).password : "";
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    /* not percent-encoded */
  }
  return [url, password, decoded];
}

/**
 * Sends a plain-text email; true once the SMTP server accepted it, false when SMTP_URL is unset or
 * the send failed. `secrets` (a token, a link) are kept out of the log line of a failure.
 */
export async function sendMail(opts: { to: string; subject: string; text: string; secrets: string[] }) {
  const { SMTP_URL, SMTP_FROM } = env();
  if (!SMTP_URL) return false;
  try {
    await transport(SMTP_URL).sendMail({ from: SMTP_FROM, to: opts.to, subject: opts.subject, text: opts.text });
    return true;
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; command?: string; message?: string };
    const secrets = [...opts.secrets, ...credentialsOf(SMTP_URL)];
    log.warn(
      {
        err: {
          code: e.code,
          response_code: e.responseCode,
          command: e.command,
          message: scrub(String(e.message ?? err), secrets),
        },
      },
      "email not sent",
    );
    return false;
  }
}
