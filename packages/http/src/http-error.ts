import { errorStatus, type ErrorCode } from "@cloudcost/contracts";

export { ERROR_CODE_HEADER, type ErrorCode } from "@cloudcost/contracts";

export interface FieldError {
  path: string;
  message: string;
}

/** An error with its stable code (the code decides the status); each API renders it in its own shape. */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    /** Headers the error answer carries (a Retry-After, say). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new HttpError("invalid_request", message, errors);
export const unauthenticated = (message: string) => new HttpError("unauthenticated", message);
export const forbidden = (message: string) => new HttpError("forbidden", message);
export const notFound = (message: string) => new HttpError("not_found", message);
export const conflict = (message: string, code: ErrorCode = "conflict") => new HttpError(code, message);

const STATUS_TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export const statusTitle = (status: number) => STATUS_TITLES[status] ?? "Error";
