/** A port nothing listens on at 127.0.0.1 right now (the OS's choice). */
export function freeLoopbackPort(): Promise<number>;
