import { useState } from "react";

/** A secret the API returns once (an API key, a webhook's signing secret): shown with a copy button until dismissed. */
export function SecretOnce(props: { what: string; secret: string; testId: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(props.secret).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div className="card secret" role="status">
      <p>
        <strong>Copy {props.what} now:</strong> it is shown only once.
      </p>
      <code data-testid={props.testId}>{props.secret}</code>{" "}
      <button type="button" onClick={copy}>
        {copied ? "Copied" : "Copy"}
      </button>{" "}
      <button type="button" className="link" onClick={props.onDone}>
        Done
      </button>
    </div>
  );
}
