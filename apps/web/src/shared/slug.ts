/** The slug the API would accept for a company name: lower-case [a-z0-9-], 3-63 characters, no dash at either end. */
export function slugFrom(company: string): string {
  return company
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/g, "");
}

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export function slugProblem(slug: string): string | undefined {
  if (slug === "") return undefined;
  if (slug.length < 3 || slug.length > 63) return "A slug has 3 to 63 characters.";
  if (!SLUG_PATTERN.test(slug)) return "Use lower-case letters, digits and dashes, not starting or ending with a dash.";
  return undefined;
}
