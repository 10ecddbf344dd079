// Node module hooks for Vite's `?url` asset imports outside Vite (the worker's sql.js wasm, imported when
// `npm run fuzz` drives the worker's message handler): the module's default export is the asset's file URL,
// as Vite's is its served URL.
export async function resolve(specifier, context, nextResolve) {
  if (!specifier.endsWith('?url')) return nextResolve(specifier, context);
  const asset = await nextResolve(specifier.slice(0, -'?url'.length), context);
  return { url: `data:text/javascript,export default ${encodeURIComponent(JSON.stringify(asset.url))};`, shortCircuit: true };
}
