import type { Response } from "express";

/** Sends the success envelope `{message, status: "success", data}`. */
export function sendData(res: Response, data: unknown, message: string, status = 200): void {
  res.status(status).json({ message, status: "success", data });
}
