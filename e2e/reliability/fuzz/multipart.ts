// fast-check generator of multipart upload forms, broken in the ways a client or an attacker
// breaks them, with the answer each must get.
import fc from "fast-check";
import { encodeExtValue, fuzzString, hasControl, rawUtf8 } from "./values";

export interface Multipart {
  contentType: string;
  bytes: Buffer;
  note: string;
  /**
   * The answer the form must get: its file stored (200), 415 (not multipart with a boundary), 400
   * (truncated, malformed, no or two file parts, an empty file, a NUL in the filename), or either of
   * 200/400/415 where the parser's leniency decides (a boundary byte the header cannot carry, a cut
   * that only drops the last CRLF).
   */
  expect: "stored" | "400" | "415" | "either";
  /** Bytes of the file part, when stored. */
  fileBytes: number;
}

const CRLF = "\r\n";

/** Multipart bodies for the upload route: well-formed, and broken in every way a client can. */
export const multipartArb: fc.Arbitrary<Multipart> = fc
  .record({
    boundary: fc.constantFrom("----fuzzBoundary7MA4YWxk", "x", "a".repeat(70), "bound ary", "ÿ", "--"),
    partName: fc.constantFrom("file", "file", "file", "files", "", "FILE"),
    filename: fc.oneof(
      fc.constantFrom(
        "data.csv",
        "",
        "../../etc/passwd",
        "a\u0000b.csv",
        "\u202etxt.exe",
        "💥.csv",
        "x".repeat(400),
        'q"uote.csv',
        "C:\\x\\y.csv",
      ),
      fuzzString,
    ),
    filenameStar: fc.boolean(),
    fileType: fc.constantFrom("text/csv", "", "application/octet-stream", "text/plain; charset=utf-8", "💥/x"),
    content: fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
      fc.constant(Buffer.from("a,b\n1,2\n")),
    ),
    extraParts: fc.array(
      fc.record({
        name: fc.constantFrom("file", "other", "meta"),
        file: fc.boolean(),
        content: fc.string({ maxLength: 50 }),
      }),
      { maxLength: 3 },
    ),
    manyParts: fc.constantFrom(0, 0, 0, 70),
    bigField: fc.constantFrom(0, 0, 0, 100 * 1024),
    breakage: fc.constantFrom(
      "none",
      "none",
      "none",
      "truncate",
      "no closing boundary",
      "other boundary",
      "no boundary param",
      "not multipart",
      "LF line endings",
      "no part headers",
      "garbage preamble",
      "no disposition",
    ),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((m): Multipart => {
    const disposition = m.filenameStar
      ? `form-data; name="${m.partName}"; filename*=UTF-8''${encodeExtValue(m.filename)}`
      : `form-data; name="${m.partName}"; filename="${rawUtf8(m.filename).replace(/[\r\n"]/g, "_")}"`;
    const head = (h: string[]) => h.join(CRLF) + CRLF + CRLF;
    const parts: Buffer[] = [];
    const b = m.boundary;
    const push = (headers: string[], content: Buffer) =>
      parts.push(Buffer.concat([Buffer.from(`--${b}${CRLF}${head(headers)}`, "latin1"), content, Buffer.from(CRLF)]));
    const fileHeaders =
      m.breakage === "no disposition"
        ? [`Content-Type: ${m.fileType}`]
        : [`Content-Disposition: ${disposition}`, ...(m.fileType ? [`Content-Type: ${rawUtf8(m.fileType)}`] : [])];
    if (m.breakage === "no part headers")
      parts.push(Buffer.from(`--${b}${CRLF}${CRLF}`, "latin1"), m.content, Buffer.from(CRLF));
    else push(fileHeaders, m.content);
    for (const p of m.extraParts) {
      push(
        [`Content-Disposition: form-data; name="${p.name}"${p.file ? '; filename="x.txt"' : ""}`],
        Buffer.from(p.content, "utf8"),
      );
    }
    for (let i = 0; i < m.manyParts; i++) push([`Content-Disposition: form-data; name="f${i}"`], Buffer.from("v"));
    if (m.bigField) push(['Content-Disposition: form-data; name="big"'], Buffer.alloc(m.bigField, 0x61));
    let bytes = Buffer.concat([
      ...parts,
      Buffer.from(m.breakage === "no closing boundary" ? "" : `--${b}--${CRLF}`, "latin1"),
    ]);
    if (m.breakage === "garbage preamble")
      bytes = Buffer.concat([Buffer.from("garbage\x00\xff preamble\r\n", "latin1"), bytes]);
    if (m.breakage === "LF line endings")
      bytes = Buffer.from(bytes.toString("latin1").replace(/\r\n/g, "\n"), "latin1");
    const full = bytes.length;
    if (m.breakage === "truncate") bytes = bytes.subarray(0, Math.floor(bytes.length * m.cut));
    const quoted = /[^A-Za-z0-9'()+_,\-./:=?]/.test(b) ? `"${b}"` : b;
    const contentType =
      m.breakage === "other boundary"
        ? "multipart/form-data; boundary=somethingElse"
        : m.breakage === "no boundary param"
          ? "multipart/form-data"
          : m.breakage === "not multipart"
            ? "application/octet-stream"
            : `multipart/form-data; boundary=${rawUtf8(quoted)}`;
    // busboy ignores a part whose filename* is empty, and takes an empty filename="" for a field
    // (a browser's empty file input); a part with no headers at all makes the form malformed.
    const mainIsFile = m.breakage !== "no disposition" && m.filename !== "";
    const fileParts = [
      ...(mainIsFile ? [{ name: m.partName, bytes: m.content.length, filename: m.filename }] : []),
      ...m.extraParts
        .filter((p) => p.file)
        .map((p) => ({ name: p.name, bytes: Buffer.byteLength(p.content), filename: "x.txt" })),
    ];
    const only = fileParts.length === 1 ? fileParts[0]! : undefined;
    const wellFormed = ["none", "garbage preamble", "no disposition"].includes(m.breakage);
    let expect: Multipart["expect"];
    if (m.breakage === "not multipart" || m.breakage === "no boundary param") expect = "415";
    else if (m.boundary === "ÿ") expect = "either";
    else if (m.breakage === "truncate" && bytes.length >= full - 2) expect = "either";
    else if (!wellFormed || (mainIsFile && hasControl(disposition)))
      expect = "400"; // busboy: malformed header
    else if (only?.name === "file" && only.bytes > 0 && only.filename !== "" && !only.filename.includes("\u0000"))
      expect = "stored";
    else expect = "400";
    return {
      contentType,
      bytes,
      expect,
      fileBytes: only?.bytes ?? 0,
      note: `multipart: boundary ${JSON.stringify(b)}, part ${JSON.stringify(m.partName)}, filename ${JSON.stringify(m.filename).slice(0, 60)}${m.filenameStar ? "*" : ""}, ${m.content.length} bytes, ${m.extraParts.length} extra, ${m.manyParts} many, big field ${m.bigField}, ${m.breakage}${m.breakage === "truncate" ? ` at ${bytes.length}` : ""}`,
    };
  });
