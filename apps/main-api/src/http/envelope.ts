const envelope = <T>(message: string, data: T) => ({ message, status: "success" as const, data });

/** A route handler's 200 reply in the success envelope `{message, status: "success", data}`. */
export const success = <T>(message: string, data: T) => ({ status: 200 as const, body: envelope(message, data) });

/** A route handler's 201 reply in the success envelope. */
export const created = <T>(message: string, data: T) => ({ status: 201 as const, body: envelope(message, data) });
