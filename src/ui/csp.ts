// The Content-Security-Policy of the built app. Everything the user opens stays in the tab: connect-src 'self'
// lets the page fetch only its own examples and code; no other host can be reached. The same policy goes into
// the built index.html (<meta>) and public/_headers (which adds frame-ancestors, ignored in a <meta>).
export const CSP_DIRECTIVES: readonly string[] = [
  "default-src 'self'",
  "connect-src 'self'",
  // sql.js and any WebAssembly need wasm-unsafe-eval; no inline script, no eval.
  "script-src 'self' 'wasm-unsafe-eval'",
  // blob: only for the one-line bootstrap that makes the worker inherit this policy (src/ui/worker-factory.ts).
  "worker-src 'self' blob:",
  // Styles come from the bundled stylesheet only; positions are set through the CSSOM, which CSP allows.
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "manifest-src 'self'",
  "media-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

export const CSP_META = CSP_DIRECTIVES.join('; ');
/** Header form: frame-ancestors only works as an HTTP header. */
export const CSP_HEADER = [...CSP_DIRECTIVES, "frame-ancestors 'none'"].join('; ');
