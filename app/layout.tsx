import type { ReactNode } from "react";

export const metadata = { title: "Agent Webhook Service" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "2rem auto", maxWidth: 760, lineHeight: 1.5 }}>
        {children}
      </body>
    </html>
  );
}
