import { randomUUID } from "node:crypto";
import http, { type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { ERROR_CODE_HEADER, HttpError, statusTitle } from "./http-error";

/** The body of an error answered before Express saw the request, in the API's own shape. */
export type ClientErrorBody = (path: string, error: HttpError, requestId: string) => { contentType: string; body: string };

interface ParserError extends Error {
  code?: string;
  /** What the parser had read: the request line, when it got that far. */
  rawPacket?: Buffer;
}

/** The path of the request line (`GET /v1/x?y HTTP/1.1` → `/v1/x`), or "/" when there is none. */
export function requestLinePath(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 8192).toString("latin1").split("\r\n", 1)[0] ?? "";
  const target = /^[A-Z]+ (\/[^ ?#]*)/.exec(line)?.[1];
  return target ?? "/";
}

function errorOf(err: ParserError): HttpError {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return new HttpError("headers_too_large", `The request headers are larger than the ${Math.round(http.maxHeaderSize / 1024)} KiB this server accepts.`);
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new HttpError("request_timeout", "The request was not received in time.");
    default:
      return new HttpError("malformed_request", "The request is not valid HTTP/1.1.");
  }
}

/**
 * Requests Node's HTTP parser refuses (oversized headers, malformed request lines, a client too
 * slow to send its headers) never reach Express: Node would answer a bare status line. This
 * answers them in the API's own error shape, chosen by the path of the request line.
 */
export function answerClientErrors(server: Server, options: { logger: Logger; body: ClientErrorBody }): void {
  server.on("clientError", (err: ParserError, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
    // A reset connection, or one whose response has begun, cannot be answered.
    if (err.code === "ECONNRESET" || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const error = errorOf(err);
    const requestId = randomUUID();
    const path = requestLinePath(err.rawPacket);
    options.logger.warn({ requestId, code: err.code, status: error.status, path }, "request refused by the HTTP parser");
    const { contentType, body } = options.body(path, error, requestId);
    socket.end(
      `HTTP/1.1 ${error.status} ${statusTitle(error.status)}\r\n` +
        `Content-Type: ${contentType}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `${ERROR_CODE_HEADER}: ${error.code}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}
