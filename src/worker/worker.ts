/// <reference lib="webworker" />
// The analysis worker: reads and analyzes input off the main thread, keeps the result (with its text) as the
// session, and answers the page's queries. One analysis runs at a time; a new one replaces the session. The
// message handling itself is src/worker/dispatch.ts.
import { createDispatcher } from './dispatch.ts';
import type { FromWorker } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const dispatch = createDispatcher((message: FromWorker) => self.postMessage(message));

self.addEventListener('message', (event: MessageEvent<unknown>) => void dispatch(event.data));
