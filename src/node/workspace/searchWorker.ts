/**
 * The search thread's entry (a `node:worker_threads` Worker started by `searchThreads.ts`). The
 * extension bundles it as its own file, `dist/searchWorker.js` beside `dist/extension.js`
 * (`esbuild.mjs`); from TypeScript sources (tests, the headless runner) this file runs through tsx.
 * One request at a time: it answers with progress replies, then `done` or `failed`.
 */
import { parentPort } from 'node:worker_threads';
import { failedReply, type SearchReply, type SearchRequest } from './searchProtocol';
import { runSearchJob } from './searchJobs';

const port = parentPort;
if (!port) throw new Error('searchWorker runs as a worker thread started by the workspace (searchThreads.ts), not on its own.');

const send = (reply: SearchReply): void => port.postMessage(reply);

port.on('message', (request: SearchRequest) => {
  runSearchJob(request, send).then(
    () => send({ kind: 'done' }),
    (error: unknown) => send(failedReply(error)),
  );
});
send({ kind: 'ready' });
