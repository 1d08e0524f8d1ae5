// Module resolution hooks, registered in every thread by layout.js.
//
// 1. In a checkout (`sources`), `import 'modelcheck'` resolves with the "source" export condition
//    (package.json: src/index.ts), the module the CLI itself runs, where otherwise it would get
//    dist/, which a checkout need not have built. Only for this very package: a model whose
//    folder resolves some other copy of modelcheck gets that copy, as Node gives it.
// 2. A model imported again after an edit (--watch) is imported with `?modelcheck-run=N` on its
//    URL (src/cli/loadModel.ts): a new module instance. Its own local modules get the same query
//    here, so that they are read again too; packages (anything under node_modules) and
//    modelcheck's own code never do: the model must share them with the engine that checks it.
// 3. The model's own modules' `import 'immutable'` gets src/engine/values/immutableForModels.ts:
//    immutable.js, whose Record types are FlatRecords there (that module says why). Only where the
//    model would get the very immutable.js modelcheck runs; packages keep theirs; and not with
//    MODELCHECK_RECORDS=immutable (layout.js passes it as `flatRecords`).
const OWN = new URL('../', import.meta.url).href;
const OWN_CODE = [`${OWN}src/`, `${OWN}dist/`, `${OWN}bin/`];
const RUN = /[?&](modelcheck-run=\d+)/;
let sources = false;
let flatRecords = false;
/** The URL of the immutable.js modelcheck's own modules import, once asked. */
let ownImmutable;

export function initialize(data) {
  sources = data?.sources === true;
  flatRecords = data?.flatRecords === true;
}

/** Whether `url` is a module of the model's own: a file, neither a package's nor modelcheck's (2 and 3 above). */
function modelCode(url) {
  return url?.startsWith('file:') === true && !url.includes('/node_modules/') && !OWN_CODE.some((dir) => url.startsWith(dir));
}

export async function resolve(specifier, context, nextResolve) {
  if (flatRecords && specifier === 'immutable' && modelCode(context.parentURL)) {
    const found = await nextResolve(specifier, context);
    ownImmutable ??= nextResolve('immutable', { ...context, parentURL: `${OWN}package.json` }).then((r) => r.url);
    if (found.url !== (await ownImmutable)) return found;
    const shim = sources ? `${OWN}src/engine/values/immutableForModels.ts` : `${OWN}dist/engine/values/immutableForModels.js`;
    // (Through the next hooks, tsx's among them: the sources are TypeScript.)
    return nextResolve(shim, context);
  }
  if (sources && (specifier === 'modelcheck' || specifier.startsWith('modelcheck/'))) {
    try {
      const found = await nextResolve(specifier, { ...context, conditions: [...context.conditions, 'source'] });
      if (found.url.startsWith(OWN)) return found;
    } catch {
      // Not resolvable with the condition either: Node's own answer (and error) below.
    }
  }
  const found = await nextResolve(specifier, context);
  const run = context.parentURL === undefined ? null : RUN.exec(context.parentURL);
  if (run === null || !modelCode(found.url) || RUN.test(found.url)) return found;
  return { ...found, url: `${found.url}${found.url.includes('?') ? '&' : '?'}${run[1]}` };
}
