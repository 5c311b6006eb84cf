// An email (or a label that may be one) in a narrow table cell: it wraps before its `@` first, and
// anywhere inside a local part or domain too long for the cell (`overflow-wrap: anywhere` also lets
// the table shrink the column below the word's width, so the table stays inside a phone's width).

/** An email that wraps, preferably before its `@`; any other text wraps anywhere if it must. */
export function EmailText({ text }: { text: string }) {
  const at = text.indexOf("@");
  return (
    <span className="[overflow-wrap:anywhere]">
      {at <= 0 ? (
        text
      ) : (
        <>
          {text.slice(0, at)}
          <wbr />
          {text.slice(at)}
        </>
      )}
    </span>
  );
}
