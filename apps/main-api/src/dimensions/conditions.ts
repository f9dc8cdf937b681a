import type { Condition, DimensionRule } from "@cloudcost/contracts";
import type { FieldError } from "@cloudcost/http";
import { RE2JS } from "re2js";

type Path = (string | number)[];

/** Calls `visit` on every leaf of the rules' conditions with its path (`rules.3.match.all.1`). */
export function eachLeaf(rules: DimensionRule[], visit: (leaf: Condition, path: Path) => void): void {
  const walk = (c: Condition, path: Path) => {
    if (c.field !== undefined) visit(c, path);
    c.all?.forEach((child, i) => {
      walk(child, [...path, "all", i]);
    });
    c.any?.forEach((child, i) => {
      walk(child, [...path, "any", i]);
    });
    if (c.not) walk(c.not, [...path, "not"]);
  };
  rules.forEach((rule, i) => {
    walk(rule.match, ["rules", i, "match"]);
  });
}

/** The dimensions the rules read (`dimension:<key>` fields), each with the path of its first use. */
export function referencedDimensions(rules: DimensionRule[]): Map<string, string> {
  const found = new Map<string, string>();
  eachLeaf(rules, (leaf, path) => {
    const key = leaf.field?.startsWith("dimension:") ? leaf.field.slice("dimension:".length) : undefined;
    if (key && !found.has(key)) found.set(key, [...path, "field"].join("."));
  });
  return found;
}

/** A compiled RE2 pattern (linear time in the input, whatever the pattern): never JavaScript's backtracking RegExp on a customer's pattern. */
export function compileRegex(pattern: string, insensitive: boolean): RE2JS {
  return RE2JS.compile(pattern, insensitive ? RE2JS.CASE_INSENSITIVE : 0);
}

/** Each `regex` leaf whose pattern RE2 refuses, as a field error naming its path. */
export function invalidRegexes(rules: DimensionRule[]): FieldError[] {
  const errors: FieldError[] = [];
  eachLeaf(rules, (leaf, path) => {
    if (leaf.op !== "regex" || leaf.value === undefined) return;
    try {
      compileRegex(leaf.value, leaf.case === "insensitive");
    } catch (err) {
      errors.push({ path: [...path, "value"].join("."), message: `not an RE2 pattern: ${(err as Error).message}` });
    }
  });
  return errors;
}

/**
 * The cycle the dimension `key` would close with the rules `rules` among the others' (key -> the
 * dimensions its rules read), as the keys along it (`team -> owner -> team`), or null.
 */
export function findCycle(key: string, reads: Map<string, Set<string>>): string[] | null {
  const stack: string[] = [key];
  const onPath = new Set<string>([key]);
  const done = new Set<string>();
  const visit = (from: string): string[] | null => {
    for (const next of reads.get(from) ?? []) {
      if (next === key) return [...stack, key];
      if (onPath.has(next) || done.has(next)) continue;
      stack.push(next);
      onPath.add(next);
      const cycle = visit(next);
      if (cycle) return cycle;
      stack.pop();
      onPath.delete(next);
      done.add(next);
    }
    return null;
  };
  return visit(key);
}
