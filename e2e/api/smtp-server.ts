// A local SMTP server for the tests of outgoing email (smtp-server): it takes AUTH PLAIN/LOGIN
// without TLS for one user, refuses recipients whose address starts with `bounce` (550), and keeps
// every message it accepted.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The authenticated user. */
  user: string;
  headers: string;
  /** The body, decoded from quoted-printable when it was sent so. */
  text: string;
}

export interface SmtpTestServer {
  /** `smtp://user:password@127.0.0.1:port`, the password percent-encoded. */
  url: string;
  password: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

function parse(raw: string): Pick<ReceivedMail, "headers" | "text"> {
  const split = raw.indexOf("\r\n\r\n");
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  return {
    headers,
    text: /content-transfer-encoding:\s*quoted-printable/i.test(headers) ? decodeQuotedPrintable(body) : body,
  };
}

export async function startSmtpServer(user = "mailer", password = "s3cret p@ss:word"): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) cb(null, { user });
      else cb(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, cb) {
      if (!address.address.startsWith("bounce")) return cb();
      cb(Object.assign(new Error("No such mailbox here"), { responseCode: 550 }));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: String(session.user ?? ""),
          ...parse(Buffer.concat(chunks).toString("utf8")),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    password,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
