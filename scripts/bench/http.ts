import http from "node:http";
import net from "node:net";
import { type BenchRequest, bodyToSend } from "./targets";

export type RawResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as sent: no decompression, no decoding. */
  body: Buffer;
};

/**
 * One request with node:http, which adds no headers of its own beyond Host
 * and Connection (fetch would add Accept-Encoding and decompress).
 */
export function rawRequest(origin: string, request: BenchRequest, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    const body = bodyToSend(request);
    if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
    const outgoing = http.request(new URL(request.path, origin), { method: request.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** A TCP port nobody listens on right now, chosen by the OS. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}
