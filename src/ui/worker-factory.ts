// Starts the analysis worker (and a folder's session workers) so that the page's CSP binds it on ANY host. A
// worker loaded from its own URL takes its policy from that script's HTTP headers, so on a host that does not send
// ours (only the <meta> tag applies) it could reach any origin. A worker started from a blob: URL inherits the
// creating page's policy instead, meta tag included; the blob only imports the real, same-origin worker module.
import workerUrl from '../worker/worker.ts?worker&url';
import sessionWorkerUrl from '../worker/pool/session-worker.ts?worker&url';

function startModuleWorker(url: string, name: string): Worker {
  const moduleUrl = new URL(url, document.baseURI).href;
  const bootstrap = new Blob([`import ${JSON.stringify(moduleUrl)};\n`], { type: 'text/javascript' });
  const blobUrl = URL.createObjectURL(bootstrap);
  try {
    return new Worker(blobUrl, { type: 'module', name });
  } finally {
    // The worker has its own reference to the script once constructed; the URL is no longer needed.
    queueMicrotask(() => URL.revokeObjectURL(blobUrl));
  }
}

export function startAnalysisWorker(): Worker {
  return startModuleWorker(workerUrl, 'ctxray-analysis');
}

/** A session worker of a folder's pool (src/worker/pool/session-worker.ts, started by src/ui/folder-pool.ts). */
export function startSessionWorker(): Worker {
  return startModuleWorker(sessionWorkerUrl, 'ctxray-session');
}
