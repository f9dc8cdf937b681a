import type { Condition, DimensionRule } from "@cloudcost/contracts";
import { compileRegex } from "./conditions";

/** A line's value of a condition field (`region`, `tag:team`, `dimension:owner`): null when it has none. */
export type FieldReader = (field: string) => string | null;

/** A version's rules and default, as assign() needs them. */
export interface AssignableVersion {
  rules: DimensionRule[];
  default_value: string | null;
}

/** What assign() answers for a line: its value (null: unallocated) and the index of the rule that gave it (null: the default). */
export interface Assignment {
  value: string | null;
  rule: number | null;
}

type Test = (read: FieldReader) => boolean;

const fold = (text: string, insensitive: boolean) => (insensitive ? text.toLowerCase() : text);

/** A leaf as a test of a line; a line without the field matches only `absent`. */
function compileLeaf(leaf: Condition): Test {
  const field = leaf.field as string;
  const insensitive = leaf.case === "insensitive";
  const value = leaf.value === undefined ? "" : fold(leaf.value, insensitive);
  const has = (read: FieldReader) => {
    const own = read(field);
    return own === null || own === "" ? null : fold(own, insensitive);
  };
  switch (leaf.op) {
    case "present":
      return (read) => has(read) !== null;
    case "absent":
      return (read) => has(read) === null;
    case "eq":
      return (read) => has(read) === value;
    case "in": {
      const values = new Set((leaf.values ?? []).map((v) => fold(v, insensitive)));
      return (read) => {
        const own = has(read);
        return own !== null && values.has(own);
      };
    }
    case "prefix":
      return (read) => has(read)?.startsWith(value) ?? false;
    case "suffix":
      return (read) => has(read)?.endsWith(value) ?? false;
    case "contains":
      return (read) => has(read)?.includes(value) ?? false;
    case "regex": {
      // RE2: linear in the text whatever the pattern. Case folding is the pattern's own flag.
      const pattern = compileRegex(leaf.value as string, insensitive);
      return (read) => {
        const own = read(field);
        return own !== null && own !== "" && pattern.test(own);
      };
    }
    default:
      throw new Error(`unknown op ${String(leaf.op)}`);
  }
}

export function compileCondition(c: Condition): Test {
  if (c.all) {
    const tests = c.all.map(compileCondition);
    return (read) => tests.every((test) => test(read));
  }
  if (c.any) {
    const tests = c.any.map(compileCondition);
    return (read) => tests.some((test) => test(read));
  }
  if (c.not) {
    const test = compileCondition(c.not);
    return (read) => !test(read);
  }
  return compileLeaf(c);
}

/**
 * A version as a function of a line: the first rule whose condition holds gives the value (a
 * literal, or the line's own value of `value_from`, the rule not matching a line without one);
 * no rule: the default (null: unallocated).
 */
export function compileAssignment(version: AssignableVersion): (read: FieldReader) => Assignment {
  const rules = version.rules.map((rule) => ({ test: compileCondition(rule.match), value: rule.value, from: rule.value_from }));
  return (read) => {
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      if (!rule.test(read)) continue;
      if (rule.value !== undefined) return { value: rule.value, rule: i };
      const own = read(rule.from as string);
      if (own !== null && own !== "") return { value: own, rule: i };
    }
    return { value: version.default_value, rule: null };
  };
}
