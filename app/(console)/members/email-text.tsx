// An email in a narrow table cell.

/** An email that wraps, preferably before its `@`. */
export const EmailText = ({ email }: { email: string }) => (
  <span>
    {email.split("@")[0]}
    <wbr />@{email.split("@").slice(1).join("@")}
  </span>
);
