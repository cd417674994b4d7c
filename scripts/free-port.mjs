// A free TCP port on the loopback interface, for `npm start` and the real-editor tests alike.
import { createServer } from 'node:net';

/** @returns {Promise<number>} a port nothing listens on at 127.0.0.1 right now (the OS's choice) */
export function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
