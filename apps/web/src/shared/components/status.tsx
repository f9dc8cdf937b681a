import type { ReactNode } from "react";
import { describeError } from "../api/errors";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function ErrorNote({ error, title = "That did not work" }: { error: unknown; title?: string }) {
  return (
    <div className="error" role="alert">
      <strong>{title}:</strong> {describeError(error)}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Loading, error or the content of one query. */
export function QueryState<T>({ query, children }: { query: { isPending: boolean; error: unknown; data: T | undefined }; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorNote error={query.error} title="Could not load" />;
  if (query.isPending || query.data === undefined) return <Loading />;
  return <>{children(query.data)}</>;
}
