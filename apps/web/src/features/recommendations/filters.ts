import { listValue } from "../../shared/url-query";

/**
 * The recommendation filters, kept in the page's URL (so a filtered view can be bookmarked and
 * shared) and passed to the API as they are: list parameters as `a,b`.
 */
export const LIST_FILTERS = ["provider", "region", "availability_zone", "instance_type", "architecture", "operating_system", "action"] as const;
export const SUMMARY_KEYS = ["resource_type", "active", ...LIST_FILTERS.filter((key) => key !== "action")] as const;
export const LIST_KEYS = ["resource_type", "active", ...LIST_FILTERS, "limit", "cursor"] as const;

export type FilterKey = (typeof LIST_KEYS)[number];

/** The API query of one view: only the keys it takes, empty ones left out, lists normalised. */
export function apiQuery(search: URLSearchParams, keys: readonly string[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of keys) {
    const values = search.getAll(key).flatMap((v) => listValue(v));
    if (values.length > 0) out.set(key, values.join(","));
  }
  return out;
}

/** A new URL query with one filter changed; any change of filter starts again at the first page. */
export function withFilter(search: URLSearchParams, key: FilterKey, value: string | string[] | undefined): URLSearchParams {
  const next = new URLSearchParams(search);
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  if (listValue(text).length === 0) next.delete(key);
  else next.set(key, Array.isArray(value) ? value.join(",") : text);
  if (key !== "cursor") next.delete("cursor");
  return next;
}

/** Toggles one value of a list filter (a checkbox). */
export function toggled(search: URLSearchParams, key: FilterKey, value: string): URLSearchParams {
  const current = listValue(search.get(key));
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return withFilter(search, key, next);
}
