import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import supertest from "supertest";

interface DocumentLike {
  paths?: Record<string, Record<string, unknown>>;
}
interface OperationLike {
  responses?: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * Checks responses against an OpenAPI 3.1 document: the status is documented for the operation,
 * the content type is one it documents, the body validates against its schema (ajv, JSON Schema
 * 2020-12) and an error carries X-Error-Code. Paths the document does not describe are skipped
 * (listRoutes-based tests cover undocumented routes).
 */
export function responseValidator(document: DocumentLike) {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  addFormats(ajv);
  // zod writes `.startsWith()` as this format beside a `pattern`, which is what checks it.
  ajv.addFormat("starts_with", true);
  ajv.addSchema(document, "doc");
  const templates = Object.keys(document.paths ?? {})
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    }))
    .sort((a, b) => a.params - b.params);
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (ref: string) => {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `doc#/${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  };

  return function check(
    method: string,
    url: string,
    res: { status: number; headers: Record<string, string | string[] | undefined>; text?: string; body?: unknown },
  ): string[] {
    const path = new URL(url, "http://localhost").pathname;
    const template = templates.find((t) => t.pattern.test(path))?.template;
    const operation = template ? (document.paths?.[template]?.[method.toLowerCase()] as OperationLike | undefined) : undefined;
    if (!template || !operation) return [];
    const where = `${method.toUpperCase()} ${template} ${res.status}`;
    const response = operation.responses?.[String(res.status)] ?? operation.responses?.default;
    if (!response) return [`${where}: status not documented`];
    const problems: string[] = [];
    if (res.status >= 400 && !res.headers["x-error-code"]) problems.push(`${where}: no X-Error-Code header`);
    const text = res.text ?? (typeof res.body === "string" ? res.body : "");
    if (!text) return problems;
    const type = String(res.headers["content-type"] ?? "")
      .split(";")[0]
      .trim();
    const contentType = Object.keys(response.content ?? {}).find((documented) => documented === type);
    if (!contentType)
      return [...problems, `${where}: content type ${type || "(none)"} not documented (${Object.keys(response.content ?? {}).join(", ") || "no body"})`];
    if (!/json/.test(contentType)) return problems;
    const status = operation.responses?.[String(res.status)] ? String(res.status) : "default";
    const validate = validatorOf(pointer("paths", template, method.toLowerCase(), "responses", status, "content", contentType, "schema"));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, `${where}: body is not JSON`];
    }
    if (!validate(body)) problems.push(`${where}: body does not match the document: ${ajv.errorsText(validate.errors, { separator: "; " })}`);
    return problems;
  };
}

type Check = ReturnType<typeof responseValidator>;
type AssertCallback = (err: Error | null, res: supertest.Response) => void;
interface TestInternals {
  method: string;
  url: string;
  assert(resError: Error | null, res: supertest.Response, fn: AssertCallback): void;
}

/** What the validator found in this process's suites (each problem fails its request too). */
export const responseProblems: string[] = [];

/**
 * Makes every supertest request of the test file fail when its response does not match
 * `document` (installed from a Jest setup file; supertest is one module instance per test file).
 */
export function validateResponsesAgainst(document: DocumentLike): void {
  const check: Check = responseValidator(document);
  const prototype = (supertest as unknown as { Test: { prototype: TestInternals } }).Test.prototype;
  const assert = prototype.assert;
  prototype.assert = function (this: TestInternals, resError, res, fn) {
    return assert.call(this, resError, res, (err, checked) => {
      const problems = !err && checked ? check(this.method, this.url, checked) : [];
      responseProblems.push(...problems);
      fn(problems.length ? new Error(`response differs from the OpenAPI document:\n${problems.join("\n")}`) : err, checked);
    });
  };
}
