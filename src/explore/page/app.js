// The explorer's page: plain ES module, no build step. It keeps the path (variant, initial state,
// step labels) in the URL, asks the server (src/explore/server.ts) what that path leads to, and
// draws it. Model data is only ever set as text, never as HTML.

const $ = (id) => document.getElementById(id);

/** What is shown: the path's first `cursor` steps; the steps after it are the way forward again. */
const path = { variant: '', init: 0, steps: [], cursor: 0 };
let model = null;
let pollTimer = null;
/**
 * The lasso last replayed (a liveness counterexample): its path and the state its cycle goes
 * back to, marked while the path shown is that path.
 */
let cycle = null;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

function query(steps) {
  const q = new URLSearchParams();
  q.set('variant', path.variant);
  if (path.init !== 0) q.set('init', String(path.init));
  for (const s of steps) q.append('step', s);
  return q;
}

function urlOf() {
  return `/?${query(path.steps.slice(0, path.cursor)).toString()}`;
}

function readUrl() {
  const q = new URLSearchParams(location.search);
  const steps = q.getAll('step');
  path.variant = q.get('variant') ?? path.variant;
  path.init = Number(q.get('init') ?? '0');
  path.steps = steps;
  path.cursor = steps.length;
}

function showError(text) {
  const box = $('error');
  box.hidden = text === null;
  box.textContent = text ?? '';
}

async function getJson(url, init = {}) {
  // The server answers its API only with this header (server.ts, foreign()).
  const res = await fetch(url, { ...init, headers: { 'x-modelcheck-explore': '1' } });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error?.text ?? body.error?.message ?? `${res.status}`);
  return body;
}

let shown = 0;
async function show(push) {
  if (push) history.pushState(null, '', urlOf());
  $('link').href = urlOf();
  // Answers may come back out of order: only the latest request's is drawn.
  const n = ++shown;
  let data;
  try {
    data = await getJson(`/api/path?${query(path.steps.slice(0, path.cursor)).toString()}`);
  } catch (e) {
    if (n === shown) {
      showError(e.message);
      for (const b of document.querySelectorAll('#enabled button')) b.disabled = false;
    }
    return;
  }
  if (n !== shown) return;
  if (data.refusal) {
    const r = data.refusal;
    const where = r.at === 0 ? 'the initial state' : `step ${r.at}`;
    showError(`${where} of this path, ${r.label}, cannot be taken: ${r.reason}.\nEnabled there: ${r.enabled.join(', ') || '(nothing)'}`);
    // Show what could be followed (from the first initial state, if the one named is not there).
    path.steps = path.steps.slice(0, Math.max(0, r.at - 1));
    path.cursor = path.steps.length;
    history.replaceState(null, '', urlOf());
    $('link').href = urlOf();
    if (r.at === 0 && path.init !== 0) {
      path.init = 0;
      history.replaceState(null, '', urlOf());
      const box = $('error').textContent;
      await show(false);
      showError(box);
      return;
    }
  } else showError(null);
  render(data);
}

function render(data) {
  document.body.dataset.variant = data.variant;
  document.body.dataset.cursor = String(path.cursor);
  renderPath(data);
  renderState(data);
  renderProperties(data.properties);
  renderEnabled(data.enabled);
  $('mermaid').textContent = data.mermaid;
  void drawDiagram(data.mermaid);
  $('back').disabled = path.cursor === 0;
  $('forward').disabled = path.cursor >= path.steps.length;
}

let diagrams = 0;
/** The sequence diagram, drawn by Mermaid (strict: labels are text, never markup); the source stays below it. */
async function drawDiagram(source) {
  const box = $('diagram');
  const mermaid = window.mermaid;
  if (mermaid === undefined || source === '') {
    box.replaceChildren();
    return;
  }
  const n = ++diagrams;
  try {
    const { svg } = await mermaid.render(`diagram-${n}`, source);
    // A later path may have been drawn meanwhile.
    if (n === diagrams) box.innerHTML = svg;
  } catch (e) {
    if (n === diagrams) box.textContent = `(the diagram could not be drawn: ${e.message})`;
  }
}

function renderPath(data) {
  const list = $('path');
  list.replaceChildren();
  data.steps.forEach((s, i) => {
    const label = s.label ?? (data.initials.length > 1 ? data.initials[path.init] : 'initial state');
    const li = el('li', { 'data-step': String(i), onclick: () => go(i) }, label);
    if (i === data.steps.length - 1) li.classList.add('current');
    if (i > 0 && s.changes.length > 0) {
      const changes = el('ul', { class: 'changes' }, ...s.changes.map((c) => el('li', {}, c.text)));
      // A long list folds, so that the path stays readable as a list of steps.
      li.append(s.changes.length <= 3 ? changes : el('details', {}, el('summary', {}, `${s.changes.length} changes`), changes));
    }
    list.append(li);
  });
  // The way forward again, greyed: still the path's, until another step is taken here.
  path.steps.slice(path.cursor).forEach((label, k) => {
    const i = path.cursor + k + 1;
    list.append(el('li', { class: 'future', 'data-step': String(i), onclick: () => go(i) }, label));
  });
  if (onCycle()) {
    list.querySelector(`li[data-step="${cycle.loop}"]`)?.classList.add('cycle-start');
    list.append(
      el(
        'li',
        { class: 'cycle', 'data-cycle': String(cycle.loop), onclick: () => go(cycle.loop) },
        // (The path is numbered from 1, its first entry the initial state: state k is entry k + 1.)
        `then back to state ${cycle.loop + 1}, and round again for ever`,
      ),
    );
  }
}

/** Whether the path shown, with its way forward, is the lasso's. */
function onCycle() {
  return (
    cycle !== null &&
    cycle.variant === path.variant &&
    cycle.init === path.init &&
    cycle.steps.length === path.steps.length &&
    cycle.steps.every((s, i) => s === path.steps[i])
  );
}

/**
 * A view's subjects as panels, grouped by the subject's first word (`source`, `target`, a
 * controller's name), each subject's fields as a table; the fields the last step changed marked.
 */
function renderState(data) {
  const panels = $('panels');
  panels.replaceChildren();
  if (data.state === null) return;
  $('state-number').textContent = String(data.steps.length);
  $('fingerprint').textContent = data.state.fingerprint;
  const last = data.steps[data.steps.length - 1];
  const changed = new Set((last && last.label !== null ? last.changes : []).map((c) => JSON.stringify(c.at.slice(0, 2))));
  const subjectChanged = new Set((last && last.label !== null ? last.changes : []).map((c) => c.at[0]));
  const view = data.state.view;
  const entries = view !== null && typeof view === 'object' && !Array.isArray(view) ? Object.entries(view) : [['state', view]];
  const groups = new Map();
  for (const [key, value] of entries) {
    // A field of a plain state (no subject words, no fields of its own) goes in one panel with the others.
    const space = key.indexOf(' ');
    const leaf = value === null || typeof value !== 'object' || Array.isArray(value);
    const group = space >= 0 ? key.slice(0, space) : leaf ? 'state' : key;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push([key, value]);
  }
  for (const [group, subjects] of groups) {
    const panel = el('div', { class: 'panel', 'data-panel': group }, el('h3', {}, group));
    for (const [key, value] of subjects) {
      const box = el('div', { class: 'subject', 'data-subject': key }, el('h4', {}, key));
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const table = el('table');
        for (const [field, v] of Object.entries(value)) {
          const row = el('tr', { 'data-field': field }, el('td', { class: 'field' }, field), el('td', { class: 'value' }, valueNode(v)));
          if (changed.has(JSON.stringify([key, field]))) row.classList.add('changed');
          table.append(row);
        }
        box.append(table);
      } else {
        const v = el('div', { class: 'value' }, valueNode(value));
        if (subjectChanged.has(key)) v.classList.add('changed');
        box.append(v);
      }
      if (changed.has(JSON.stringify([key]))) box.classList.add('changed');
      panel.append(box);
    }
    panels.append(panel);
  }
}

/** A value as text; a list (a cache's pending watch events, say) one item a line. */
function valueNode(v) {
  if (Array.isArray(v) && v.length > 0) return el('ul', { class: 'items' }, ...v.map((x) => el('li', {}, text(x))));
  return text(v);
}

function text(v) {
  if (v === null) return 'null';
  if (typeof v === 'string') return v === '' ? '""' : v;
  return JSON.stringify(v);
}

function renderProperties(properties) {
  const list = $('properties');
  list.replaceChildren();
  for (const p of properties) {
    const words = {
      holds: 'holds',
      violated: 'VIOLATED',
      premise: 'holds (premise false)',
      unsettled: 'not settled',
      initial: 'no step yet',
      search: 'judged by the search',
      outside: 'not judged: beyond the state constraint',
    };
    const li = el(
      'li',
      { 'data-property': p.name, 'data-value': p.value, title: p.kind },
      el('span', { class: 'mark' }),
      el('b', {}, p.name),
      ` ${words[p.value]}${p.justViolated ? ': violated by this step' : ''}`,
      el('span', { class: 'statement' }, p.statement),
    );
    if (p.justViolated) li.classList.add('just-violated');
    list.append(li);
  }
}

function renderEnabled(enabled) {
  const box = $('enabled');
  box.replaceChildren();
  if (enabled.length === 0) {
    box.append(el('p', {}, 'No step is enabled: the path ends here.'));
    return;
  }
  const byActor = new Map();
  for (const x of enabled) {
    if (!byActor.has(x.actor)) byActor.set(x.actor, []);
    byActor.get(x.actor).push(x);
  }
  for (const [actor, steps] of byActor) {
    const group = el('div', { class: 'actor', 'data-actor': actor }, el('h3', {}, actor));
    for (const x of steps) {
      const note = x.stutters ? ' (changes nothing)' : x.outsideConstraint ? ' (outside the state constraint)' : '';
      const b = el('button', { 'data-label': x.label, onclick: () => take(x.label) }, x.label + note);
      if (x.stutters) b.classList.add('stutters');
      group.append(b);
    }
    box.append(group);
  }
}

function take(label) {
  // Until the page has drawn this step's state, its buttons are the last state's: take one step at a time.
  for (const b of document.querySelectorAll('#enabled button')) b.disabled = true;
  if (path.steps[path.cursor] !== label) path.steps = [...path.steps.slice(0, path.cursor), label];
  path.cursor += 1;
  return show(true);
}

function go(i) {
  path.cursor = Math.min(i, path.steps.length);
  return show(true);
}

async function loadCounterexamples() {
  const variant = path.variant;
  let data;
  try {
    data = await getJson(`/api/counterexamples?variant=${encodeURIComponent(variant)}`);
  } catch (e) {
    showError(e.message);
    return;
  }
  // An answer for a variant the page has since left is dropped.
  if (variant !== path.variant) return;
  const list = $('counterexamples');
  list.replaceChildren();
  const all = [...data.loaded, ...(data.run?.counterexamples ?? [])];
  for (const x of all) {
    const b = el(
      'button',
      { 'data-counterexample': x.property, onclick: () => replay(x) },
      `${x.property} (${x.steps.length} steps${x.loop !== undefined ? `, then a cycle back to state ${x.loop + 1}` : ''}, ${x.source})`,
    );
    list.append(el('li', {}, b));
  }
  const run = data.run;
  const status = $('run-status');
  if (run === null) status.textContent = '';
  else if (run.status === 'running') {
    const p = run.progress;
    status.textContent = p ? `searching: ${p.distinctStates.toLocaleString('en-US')} states, depth ${p.depth}` : 'searching...';
    clearTimeout(pollTimer);
    pollTimer = setTimeout(loadCounterexamples, 1000);
  } else if (run.status === 'failed') status.textContent = `the search failed: ${run.error}`;
  else status.textContent = `${run.summary}; ${run.counterexamples.length} counterexample(s)`;
  document.body.dataset.run = run?.status ?? 'none';
}

function replay(x) {
  path.variant = x.variant;
  $('variant').value = x.variant;
  path.init = x.init ?? 0;
  path.steps = [...x.steps];
  path.cursor = 0;
  cycle = x.loop !== undefined ? { variant: x.variant, init: path.init, steps: [...x.steps], loop: x.loop } : null;
  return show(true);
}

/** The variant's stated assumptions, folded: what its proofs are proved under. */
function showAssumptions(variant) {
  const box = $('assumptions');
  box.replaceChildren();
  const list = variant?.assumptions ?? [];
  if (list.length === 0) return;
  box.append(
    el('details', {}, el('summary', {}, `${list.length} assumption${list.length === 1 ? '' : 's'}`), ...list.map((a) => el('p', {}, a))),
  );
}

async function start() {
  window.mermaid?.initialize({ startOnLoad: false, securityLevel: 'strict', sequence: { useMaxWidth: false } });
  try {
    model = await getJson('/api/model');
  } catch (e) {
    showError(e.message);
    return;
  }
  $('model').textContent = `${model.model}: explore`;
  const select = $('variant');
  for (const v of model.variants) select.append(el('option', { value: v.name }, v.name));
  path.variant = model.variant;
  if (location.search === '' && model.open !== null) {
    path.variant = model.open.variant;
    path.init = model.open.init;
    path.steps = [...model.open.steps];
    path.cursor = 0;
    history.replaceState(null, '', urlOf());
  } else readUrl();
  select.value = path.variant;
  select.addEventListener('change', () => {
    path.variant = select.value;
    showAssumptions(model.variants.find((v) => v.name === path.variant));
    path.init = 0;
    path.steps = [];
    path.cursor = 0;
    void show(true).then(loadCounterexamples);
  });
  const variant = model.variants.find((v) => v.name === path.variant);
  showAssumptions(variant);
  $('back').addEventListener('click', () => go(path.cursor - 1));
  $('forward').addEventListener('click', () => go(path.cursor + 1));
  $('run').addEventListener('click', async () => {
    try {
      await getJson(`/api/run?variant=${encodeURIComponent(path.variant)}`, { method: 'POST' });
    } catch (e) {
      showError(e.message);
    }
    void loadCounterexamples();
  });
  window.addEventListener('popstate', () => {
    const before = { ...path };
    readUrl();
    // Going back in the browser keeps the way forward, as the back button does, when the URL's
    // path is a beginning of the one shown.
    const prefix =
      before.variant === path.variant &&
      before.init === path.init &&
      before.steps.length >= path.steps.length &&
      path.steps.every((s, i) => s === before.steps[i]);
    if (prefix) {
      path.cursor = path.steps.length;
      path.steps = before.steps;
    }
    select.value = path.variant;
    showAssumptions(model.variants.find((v) => v.name === path.variant));
    void show(false);
    if (before.variant !== path.variant) void loadCounterexamples();
  });
  await show(false);
  await loadCounterexamples();
  document.body.dataset.ready = 'true';
}

void start();
