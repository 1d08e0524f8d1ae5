// The explorer's page: plain ES module, no build step. It keeps the path (variant, initial state,
// step labels, and the watch expression) in the URL, asks the server (src/explore/server.ts) what
// that path leads to, and draws it. Model data is only ever set as text, never as HTML.

const $ = (id) => document.getElementById(id);

/** What is shown: the path's first `cursor` steps; the steps after it are the way forward again. */
const path = { variant: '', init: 0, steps: [], cursor: 0, watch: '' };
let model = null;
let pollTimer = null;
/**
 * The counterexample last replayed: its path, its property, and for a lasso the state its cycle
 * goes back to; said in the header and marked while the path shown is its path.
 */
let replaying = null;
/** The last path drawn, kept to redraw the state when a display option changes. */
let lastData = null;
/** The diagram's zoom: 'fit' (the box's width), else a scale of its natural size. */
let zoom = 'fit';

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

/**
 * A label with places to wrap after its dots, slashes, brackets and commas and between the words
 * of a camelCase name, so that a long one (a step, a property) breaks between words.
 */
function breakable(label) {
  const out = document.createDocumentFragment();
  for (const part of label.split(/(?<=[./(,])|(?<=[a-z])(?=[A-Z])/)) out.append(part, el('wbr'));
  return out;
}

function query(steps) {
  const q = new URLSearchParams();
  q.set('variant', path.variant);
  if (path.init !== 0) q.set('init', String(path.init));
  for (const s of steps) q.append('step', s);
  return q;
}

function urlOf() {
  const q = query(path.steps.slice(0, path.cursor));
  if (path.watch !== '') q.set('watch', path.watch);
  return `/?${q.toString()}`;
}

function readUrl() {
  const q = new URLSearchParams(location.search);
  const steps = q.getAll('step');
  path.variant = q.get('variant') ?? path.variant;
  path.init = Number(q.get('init') ?? '0');
  path.steps = steps;
  path.cursor = steps.length;
  // (An entry of the history from before the expression was set keeps it: Back does not clear it.)
  path.watch = q.get('watch') ?? path.watch;
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

/** Where the keyboard was, so that it is there again after the page is drawn anew. */
function focusNow() {
  const a = document.activeElement;
  if (a === null || a === document.body) return null;
  if (a.closest('#enabled')) return { where: 'enabled', index: [...document.querySelectorAll('#enabled button')].indexOf(a) };
  if (a.closest('#path')) return { where: 'path' };
  return null;
}

function restoreFocus(was) {
  if (was === null) return;
  if (was.where === 'enabled') {
    const buttons = document.querySelectorAll('#enabled button');
    (buttons[Math.min(was.index, buttons.length - 1)] ?? $('back')).focus();
  } else $('path').querySelector('li.current > button')?.focus();
}

/** Where the keyboard was when a step was taken (its buttons are disabled until the next state is drawn, which drops the focus). */
let focusBeforeStep = null;

function render(data) {
  lastData = data;
  const focus = focusBeforeStep ?? focusNow();
  focusBeforeStep = null;
  document.body.dataset.variant = data.variant;
  document.body.dataset.cursor = String(path.cursor);
  renderPath(data);
  renderState(data);
  renderProperties(data.properties);
  renderEnabled(data.enabled);
  renderAbout();
  $('init').value = String(path.init);
  $('mermaid').textContent = data.mermaid;
  void drawDiagram(data.mermaid, data.steps.length);
  $('back').disabled = path.cursor === 0;
  $('forward').disabled = path.cursor >= path.steps.length;
  // A nav button that has just become disabled would drop the keyboard to the page: the other one takes it.
  if (document.activeElement?.disabled) ($('back').disabled ? $('forward') : $('back')).focus();
  restoreFocus(focus);
  void showWatch();
}

let diagrams = 0;
/** The sequence diagram, drawn by Mermaid (strict: labels are text, never markup); the source stays below it. */
async function drawDiagram(source, current) {
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
    if (n !== diagrams) return;
    box.innerHTML = svg;
    markDiagram(current);
  } catch (e) {
    if (n === diagrams) box.textContent = `(the diagram could not be drawn: ${e.message})`;
  }
}

/**
 * Every message and note of the diagram starts with its step's number (report/mermaid.ts): each
 * becomes a link to its step, and the current step's are marked and scrolled into view.
 */
function markDiagram(current) {
  const box = $('diagram');
  const svg = box.querySelector('svg');
  if (svg === null) return;
  svg.removeAttribute('style');
  svg.removeAttribute('height');
  const texts = [...svg.querySelectorAll('text')];
  let first = null;
  for (const t of texts) {
    const m = /^(\d+)\. /.exec(t.textContent ?? '');
    if (m === null) continue;
    const number = Number(m[1]);
    t.classList.add('step-link');
    t.dataset.step = String(number);
    t.addEventListener('click', () => go(number - 1));
    if (number === current) {
      t.classList.add('current-step');
      first ??= t;
    }
  }
  applyZoom();
  if (first !== null) {
    const b = box.getBoundingClientRect();
    const r = first.getBoundingClientRect();
    box.scrollTop += r.top - b.top - box.clientHeight / 2;
    box.scrollLeft += r.left - b.left - box.clientWidth / 3;
  }
}

function applyZoom() {
  const svg = $('diagram').querySelector('svg');
  for (const [id, on] of [
    ['zoom-fit', zoom === 'fit'],
    ['zoom-actual', zoom === 1],
  ])
    $(id).setAttribute('aria-pressed', String(on));
  if (svg === null) return;
  const natural = svg.viewBox.baseVal?.width || svg.getBBox().width;
  svg.style.maxWidth = 'none';
  svg.style.height = 'auto';
  svg.style.width = zoom === 'fit' ? `${Math.min(natural, $('diagram').clientWidth)}px` : `${Math.round(natural * zoom)}px`;
  document.body.dataset.zoom = String(zoom);
}

function setZoom(z) {
  zoom = z;
  applyZoom();
}

/** The scale shown now, for stepping the zoom from "fit". */
function scaleNow() {
  if (zoom !== 'fit') return zoom;
  const svg = $('diagram').querySelector('svg');
  const natural = svg?.viewBox.baseVal?.width;
  return natural ? Math.min(1, $('diagram').clientWidth / natural) : 1;
}

function renderPath(data) {
  const list = $('path');
  list.replaceChildren();
  const entry = (i, label, attrs, onclick) => {
    const li = el('li', { 'data-step': String(i), ...attrs }, el('button', { class: 'step', type: 'button', onclick }, breakable(label)));
    return li;
  };
  data.steps.forEach((s, i) => {
    const label = s.label ?? (data.initials.length > 1 ? data.initials[path.init] : 'initial state');
    const li = entry(i, label, {}, () => go(i));
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
    list.append(entry(i, label, { class: 'future' }, () => go(i)));
  });
  if (onReplayed() && replaying.loop !== undefined) {
    list.querySelector(`li[data-step="${replaying.loop}"]`)?.classList.add('cycle-start');
    // (The path is numbered from 1, its first entry the initial state: state k is entry k + 1.)
    const back = entry(replaying.loop, `then back to state ${replaying.loop + 1}, and round again for ever`, { class: 'cycle' }, () =>
      go(replaying.loop),
    );
    back.removeAttribute('data-step');
    back.dataset.cycle = String(replaying.loop);
    list.append(back);
  }
  $('hint').hidden = path.steps.length > 0 || replaying !== null;
  // The current entry in view, within the path's own box only (the page does not move).
  const current = list.querySelector('li.current');
  if (current !== null) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

/** Whether the path shown, with its way forward, is the counterexample last replayed. */
function onReplayed() {
  return (
    replaying !== null &&
    replaying.variant === path.variant &&
    replaying.init === path.init &&
    replaying.steps.length === path.steps.length &&
    replaying.steps.every((s, i) => s === path.steps[i])
  );
}

/** The header's account of what is shown: the variant, what it is expected to do, its initial state, and the counterexample replayed. */
function renderAbout() {
  const v = model.variants.find((x) => x.name === path.variant);
  $('variant-description').textContent = v?.description ? `${v.name}: ${v.description}` : '';
  const expected = v?.expectedViolations ?? [];
  $('expectations').textContent =
    expected.length === 0
      ? 'Expected: every property holds.'
      : `Expected: ${expected.join(', ')} violated (the search finds ${expected.length === 1 ? 'it' : 'them'}); every other property holds.`;
  const box = $('replaying');
  if (onReplayed()) {
    const r = replaying;
    const expectedHere = expected.includes(r.property);
    box.hidden = false;
    box.textContent = `Replaying ${r.property} (${expectedHere ? 'expected' : 'not expected'}): ${r.steps.length} step${r.steps.length === 1 ? '' : 's'}${r.loop !== undefined ? `, then back to state ${r.loop + 1} for ever` : ''}; from ${r.source}.`;
    box.dataset.property = r.property;
  } else {
    box.hidden = true;
    delete box.dataset.property;
  }
}

/** Each list item of `now` that is not in `before` (a new watch event, say): counted, so that a repeated item is new only past its old count. */
function addedItems(now, before) {
  if (!Array.isArray(now)) return new Set();
  const left = new Map();
  for (const x of Array.isArray(before) ? before : []) left.set(JSON.stringify(x), (left.get(JSON.stringify(x)) ?? 0) + 1);
  const added = new Set();
  now.forEach((x, i) => {
    const k = JSON.stringify(x);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else added.add(i);
  });
  return added;
}

function isRecord(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A view's subjects as panels, grouped by the subject's first word (`source`, `target`, a
 * controller's name), each subject's fields as a table. What the last step changed is marked:
 * a changed field, only the new items of a list, and a subject or field it removed, struck out.
 * The display options: only what changed, and a filter on field and subject names.
 */
function renderState(data) {
  const panels = $('panels');
  panels.replaceChildren();
  if (data.state === null) return;
  $('state-number').textContent = String(data.steps.length);
  $('fingerprint').textContent = data.state.fingerprint;
  const last = data.steps[data.steps.length - 1];
  const stepped = last !== undefined && last.label !== null;
  // Each change's path: [subject, field, ...]; [subject] where the step added or replaced it
  // whole (every field of it changed); [] where the view is one value (the 'state' subject).
  const changes = stepped ? last.changes : [];
  const changed = new Set(changes.map((c) => JSON.stringify(c.at.slice(0, 2))));
  const subjectChanged = new Set(changes.map((c) => (c.at.length === 0 ? 'state' : c.at[0])));
  const wholeChanged = new Set(changes.filter((c) => c.at.length <= 1).map((c) => (c.at.length === 0 ? 'state' : c.at[0])));
  const onlyChanges = $('only-changes').checked && stepped;
  const filter = $('filter').value.trim().toLowerCase();
  const view = data.state.view;
  const before = stepped && isRecord(data.before) ? data.before : {};
  const entries = isRecord(view) ? Object.entries(view) : [['state', view]];
  // Subjects the step removed, shown struck out where they were.
  const all = [...entries];
  if (isRecord(view)) for (const [key, value] of Object.entries(before)) if (!Object.hasOwn(view, key)) all.push([key, value, 'removed']);
  const groups = new Map();
  for (const [key, value, removed] of all) {
    if (onlyChanges && !subjectChanged.has(key) && removed === undefined) continue;
    // A field of a plain state (no subject words, no fields of its own) goes in one panel with the others.
    const space = key.indexOf(' ');
    const group = space >= 0 ? key.slice(0, space) : isRecord(value) ? key : 'state';
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push([key, value, removed]);
  }
  let shownSubjects = 0;
  for (const [group, subjects] of groups) {
    const panel = el('div', { class: 'panel', 'data-panel': group }, el('h3', {}, group));
    for (const [key, value, removed] of subjects) {
      const keyMatches = filter === '' || key.toLowerCase().includes(filter);
      const box = el('div', { class: 'subject', 'data-subject': key }, el('h4', {}, removed ? `${key} (removed by this step)` : key));
      if (removed) box.classList.add('removed');
      const old = before[key];
      if (isRecord(value)) {
        const table = el('table');
        const fields = Object.entries(value);
        if (isRecord(old) && !removed) for (const [f, v] of Object.entries(old)) if (!Object.hasOwn(value, f)) fields.push([f, v, true]);
        for (const [field, v, gone] of fields) {
          if (!keyMatches && !field.toLowerCase().includes(filter)) continue;
          const isChanged = changed.has(JSON.stringify([key, field])) || wholeChanged.has(key) || gone === true;
          if (onlyChanges && !isChanged && !removed) continue;
          const row = el('tr', { 'data-field': field }, el('td', { class: 'field' }, field), el('td', { class: 'value' }));
          const listChange = isChanged && Array.isArray(v) && Array.isArray(old?.[field]);
          row.lastChild.append(valueNode(v, listChange ? addedItems(v, old[field]) : undefined));
          // A list that gained items: the new items are marked, and the field's name, not the whole list.
          if (listChange) row.firstChild.classList.add('changed');
          else if (isChanged && !removed) row.classList.add('changed');
          if (gone === true) row.classList.add('removed');
          table.append(row);
        }
        if (table.childElementCount === 0) continue;
        box.append(table);
      } else {
        if (!keyMatches) continue;
        const listChange = subjectChanged.has(key) && Array.isArray(value) && Array.isArray(old);
        const v = el('div', { class: 'value' }, valueNode(value, listChange ? addedItems(value, old) : undefined));
        if (subjectChanged.has(key) && !listChange) v.classList.add('changed');
        box.append(v);
      }
      if (changed.has(JSON.stringify([key]))) box.classList.add('changed');
      panel.append(box);
      shownSubjects++;
    }
    if (panel.childElementCount > 1) panels.append(panel);
  }
  if (shownSubjects === 0) {
    panels.append(el('p', {}, filter !== '' ? `No field or subject matches "${filter}".` : 'The last step changed nothing shown.'));
  }
}

/** A value as text; a list (a cache's pending watch events, say) one item a line, the items in `added` marked. */
function valueNode(v, added) {
  if (Array.isArray(v) && v.length > 0) {
    return el('ul', { class: 'items' }, ...v.map((x, i) => el('li', added?.has(i) ? { class: 'added' } : {}, text(x))));
  }
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
  const replayed = onReplayed() ? replaying.property : null;
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
      el('b', {}, breakable(p.name)),
      ` ${words[p.value]}${p.justViolated ? ': violated by this step' : ''}`,
    );
    if (p.name === replayed) {
      li.classList.add('replayed');
      // A lasso violates a liveness property as a whole behaviour, which no one state shows.
      const note = p.kind === 'liveness' ? 'replaying its counterexample: this lasso violates it' : 'replaying its counterexample';
      li.append(' ', el('span', { class: 'replay-note' }, `(${note})`));
    }
    li.append(el('span', { class: 'statement' }, p.statement));
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
      const b = el('button', { 'data-label': x.label, onclick: () => take(x.label) }, breakable(x.label + note));
      if (x.stutters) b.classList.add('stutters');
      group.append(b);
    }
    box.append(group);
  }
}

function take(label) {
  // Until the page has drawn this step's state, its buttons are the last state's: take one step at a time.
  focusBeforeStep = focusNow();
  for (const b of document.querySelectorAll('#enabled button')) b.disabled = true;
  if (path.steps[path.cursor] !== label) path.steps = [...path.steps.slice(0, path.cursor), label];
  path.cursor += 1;
  return show(true);
}

function go(i) {
  const to = Math.max(0, Math.min(i, path.steps.length));
  if (to === path.cursor) return Promise.resolve();
  path.cursor = to;
  return show(true);
}

let watched = 0;
/** The last watch answer and the query it answers (variant, path and expression). */
let lastWatch;

/** The watch expression's values at every state of the path (its way forward too), beside each entry. */
async function showWatch() {
  const n = ++watched;
  for (const v of document.querySelectorAll('#path .watch-value')) v.remove();
  $('watch-now').textContent = '';
  document.body.dataset.watch = 'none';
  if (path.watch === '') return;
  const q = query(path.steps);
  q.set('expr', path.watch);
  // The answer covers the whole path: moving along it asks nothing again.
  const key = q.toString();
  let data = lastWatch?.key === key ? lastWatch.data : undefined;
  if (data === undefined) {
    try {
      data = await getJson(`/api/watch?${key}`);
    } catch (e) {
      if (n === watched) $('watch-now').textContent = e.message;
      return;
    }
    lastWatch = { key, data };
  }
  if (n !== watched) return;
  data.values.forEach((v, i) => {
    const li = $('path').querySelector(`li[data-step="${i}"]`);
    const shown = 'error' in v ? `error: ${v.error}` : text(v.value);
    if (li !== null)
      li.append(el('span', { class: `watch-value${'error' in v ? ' error' : ''}`, 'data-watch-step': String(i) }, `= ${shown}`));
    if (i === path.cursor) $('watch-now').textContent = `at state ${i + 1}: ${shown}`;
  });
  document.body.dataset.watch = String(data.values.length);
}

/** The answer of `api` about the variant shown; undefined where it failed (the error shown) or the page has left the variant since. */
async function variantJson(api) {
  const variant = path.variant;
  try {
    const data = await getJson(`/api/${api}?variant=${encodeURIComponent(variant)}`);
    return variant === path.variant ? data : undefined;
  } catch (e) {
    showError(e.message);
    return undefined;
  }
}

async function loadCounterexamples() {
  const variant = path.variant;
  const data = await variantJson('counterexamples');
  if (data === undefined) return;
  const list = $('counterexamples');
  list.replaceChildren();
  const run = data.run;
  const all = [...data.loaded, ...(run?.counterexamples ?? [])];
  const expected = model.variants.find((v) => v.name === variant)?.expectedViolations ?? [];
  for (const x of all) {
    const source =
      x.source !== 'search' ? x.source : run?.kept ? `a search kept from ${new Date(run.ended).toLocaleString()}` : 'the search';
    const b = el(
      'button',
      { 'data-counterexample': x.property, onclick: () => replay({ ...x, source }) },
      `${x.property} (${x.steps.length} steps${x.loop !== undefined ? `, then a cycle back to state ${x.loop + 1}` : ''})`,
    );
    const note = `${expected.includes(x.property) ? 'expected' : 'not expected'}; ${source}`;
    list.append(el('li', {}, b, ' ', el('span', { class: 'source' }, note)));
  }
  const status = $('run-status');
  const running = run?.status === 'running';
  $('cancel').hidden = !running;
  $('run').textContent = run === null ? 'find them (run the search)' : running ? 'searching...' : 'search again';
  $('run').disabled = running;
  if (run === null) status.textContent = '';
  else if (running) {
    const p = run.progress;
    status.textContent = p ? `searching: ${p.distinctStates.toLocaleString('en-US')} states, depth ${p.depth}` : 'searching...';
    clearTimeout(pollTimer);
    pollTimer = setTimeout(loadCounterexamples, 1000);
  } else if (run.status === 'failed') status.textContent = `the search failed: ${run.error}`;
  else status.textContent = `${run.kept ? 'kept: ' : ''}${run.summary}; ${run.counterexamples.length} counterexample(s)`;
  document.body.dataset.run = run === null ? 'none' : run.kept ? `kept-${run.status}` : run.status;
}

function replay(x) {
  path.variant = x.variant;
  $('variant').value = x.variant;
  path.init = x.init ?? 0;
  path.steps = [...x.steps];
  path.cursor = 0;
  replaying = { variant: x.variant, init: path.init, steps: [...x.steps], loop: x.loop, property: x.property, source: x.source };
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

let initials = [];
/** How many more fields the initial states differ in, each following from those named. */
let alsoDiffering = 0;
/** The initial-state picker: shown when there are several, each named with what sets it apart. */
async function loadInitials() {
  const data = await variantJson('initials');
  if (data === undefined) return;
  initials = data.initials;
  alsoDiffering = data.alsoDiffering;
  const select = $('init');
  select.replaceChildren(
    ...initials.map((s, i) => {
      const what = s.differences.map((d) => `${d.field} = ${d.value}`).join('; ');
      return el('option', { value: String(i), title: what }, what === '' ? s.label : `${s.label}: ${what}`);
    }),
  );
  select.value = String(path.init);
  $('init-picker').hidden = initials.length < 2;
  showInitial();
}

function showInitial() {
  const s = initials[path.init];
  const box = $('init-differences');
  const more = alsoDiffering > 0 ? ` (and ${alsoDiffering} more field${alsoDiffering === 1 ? '' : 's'} that differ with these)` : '';
  box.textContent =
    initials.length < 2 || s === undefined
      ? ''
      : `Initial state ${s.label} of ${initials.length}: ${s.differences.map((d) => `${d.field} = ${d.value}`).join('; ')}${more}`;
}

function variantChanged() {
  showAssumptions(model.variants.find((v) => v.name === path.variant));
  void loadInitials();
}

/** ← → and k j: back and forward along the path, unless the keys are typing into a field. */
function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  const step = { ArrowLeft: -1, k: -1, ArrowRight: 1, j: 1 }[e.key];
  if (step === undefined) return;
  e.preventDefault();
  void go(path.cursor + step);
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
  $('watch').value = path.watch;
  select.addEventListener('change', () => {
    path.variant = select.value;
    path.init = 0;
    path.steps = [];
    path.cursor = 0;
    variantChanged();
    void show(true).then(loadCounterexamples);
  });
  $('init').addEventListener('change', () => {
    path.init = Number($('init').value);
    path.steps = [];
    path.cursor = 0;
    showInitial();
    void show(true);
  });
  variantChanged();
  $('back').addEventListener('click', () => go(path.cursor - 1));
  $('forward').addEventListener('click', () => go(path.cursor + 1));
  document.addEventListener('keydown', onKey);
  $('only-changes').addEventListener('change', () => lastData && renderState(lastData));
  $('filter').addEventListener('input', () => lastData && renderState(lastData));
  $('watch-form').addEventListener('submit', (e) => {
    e.preventDefault();
    path.watch = $('watch').value.trim();
    history.replaceState(null, '', urlOf());
    $('link').href = urlOf();
    void showWatch();
  });
  $('zoom-fit').addEventListener('click', () => setZoom('fit'));
  $('zoom-actual').addEventListener('click', () => setZoom(1));
  $('zoom-in').addEventListener('click', () => setZoom(Math.min(4, scaleNow() * 1.25)));
  $('zoom-out').addEventListener('click', () => setZoom(Math.max(0.1, scaleNow() / 1.25)));
  window.addEventListener('resize', () => zoom === 'fit' && applyZoom());
  // Start or cancel the variant's search, then show where it stands.
  for (const api of ['run', 'cancel']) {
    $(api).addEventListener('click', async () => {
      try {
        await getJson(`/api/${api}?variant=${encodeURIComponent(path.variant)}`, { method: 'POST' });
      } catch (e) {
        showError(e.message);
      }
      void loadCounterexamples();
    });
  }
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
    $('watch').value = path.watch;
    if (before.variant !== path.variant) variantChanged();
    else showInitial();
    void show(false);
    if (before.variant !== path.variant) void loadCounterexamples();
  });
  await show(false);
  await loadCounterexamples();
  document.body.dataset.ready = 'true';
}

void start();
