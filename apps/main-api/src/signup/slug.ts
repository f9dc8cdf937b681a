import { randomBytes } from "node:crypto";

const MAX_BASE = 50;

/** `Müller & Söhne GmbH` → `muller-sohne-gmbh`; always 3-50 characters of [a-z0-9-]. */
export function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_BASE)
    .replace(/-+$/g, "");
  if (base.length >= 3) return base;
  return base ? `${base}-org` : "org";
}

/** Candidates for a derived slug: the base, then -2 … -9, then short random suffixes. */
export function* slugCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; n <= 9; n++) yield `${base}-${n}`;
  for (;;) yield `${base}-${randomBytes(4).toString("hex").slice(0, 6)}`;
}
