// Whole script, the dashboard's behaviour (a11y.service.dashboard): lists the runs with live
// progress, starts audits, shows a run's report with its screenshots, its diff against the
// site's baseline and sets the baseline, all through the API (with the token when the
// service asks for one), showing only the controls the token's scope allows; returns nothing.
(() => {
  const TOKEN_KEY = 'a11y.token';
  const ACTIVE = new Set(['queued', 'running']);
  const REFRESH_MS = 250;
  const byId = (id) => document.getElementById(id);
  const streams = new Map();
  const refreshTimers = new Map();
  let tokenWaiters = null;
  let rightsAsked = false;
  let shown = null;
  let objectUrls = [];

  // ------------------------------------------------------------------ the API and the token

  function withToken(headers) {
    const all = new Headers(headers || {});
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) all.set('Authorization', `Bearer ${token}`);
    return all;
  }

  function askForToken(message) {
    if (tokenWaiters === null) {
      tokenWaiters = [];
      byId('token-panel').hidden = false;
      byId('token-status').textContent = message;
      byId('token').focus();
    }
    return new Promise((resolve) => tokenWaiters.push(resolve));
  }

  byId('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = byId('token').value.trim();
    if (!token) return;
    sessionStorage.setItem(TOKEN_KEY, token);
    byId('token').value = '';
    byId('token-panel').hidden = true;
    const waiting = tokenWaiters || [];
    tokenWaiters = null;
    waiting.forEach((resolve) => resolve());
    if (!rightsAsked) loadRights();  // another token may do other things
  });

  // A request with the token; a 401 asks for it (once for all waiting requests) and retries.
  async function api(path, options = {}) {
    for (;;) {
      const response = await fetch(path, {...options, headers: withToken(options.headers)});
      if (response.status !== 401) return response;
      const refused = sessionStorage.getItem(TOKEN_KEY) !== null;
      sessionStorage.removeItem(TOKEN_KEY);
      await askForToken(refused ? 'That token was refused; enter the right one.' : '');
    }
  }

  async function answer(response) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return body;
  }

  function problem(body, fallback) {
    const error = body && body.error;
    if (!error) return fallback;
    const fields = (error.details || [])
      .filter((d) => d && d.field)
      .map((d) => `${d.field}: ${d.message}`);
    return [error.message, ...fields].join(' ');
  }

  async function getJson(path) {
    const response = await api(path);
    const body = await answer(response);
    if (!response.ok) throw new Error(problem(body, `The service answered ${response.status}.`));
    return body;
  }

  // ------------------------------------------------------------------ what the token may do

  // The form that starts audits needs scope submit, the baseline button admin; the shell
  // hides both until the service says what the token may do (the API refuses the rest anyway).
  async function loadRights() {
    rightsAsked = true;
    try {
      const self = await getJson('/auth/self');
      byId('start-panel').hidden = self.scope === 'read';
      byId('baseline-controls').hidden = self.scope !== 'admin';
    } catch (error) {
      byId('runs-status').textContent = `What this token may do could not be loaded: ${error.message}`;
    } finally {
      rightsAsked = false;
    }
  }

  // ------------------------------------------------------------------ runs and progress

  function cell(row, text, header) {
    const el = document.createElement(header ? 'th' : 'td');
    if (header) el.scope = 'row';
    if (text !== undefined) el.textContent = text;
    row.append(el);
    return el;
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : '';
  }

  function siteOf(url) {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  }

  function runRow(run) {
    const row = document.createElement('tr');
    row.dataset.run = run.id;
    row.dataset.status = run.status;
    cell(row, when(run.createdAt), true);
    cell(row, run.url);
    const status = cell(row);
    const badge = document.createElement('span');
    badge.className = `status status-${run.status}`;
    badge.textContent = run.status;
    status.append(badge);
    const p = run.progress;
    const known = p.pagesDone + p.pagesQueued;
    const progress = cell(row);
    const bar = document.createElement('progress');
    bar.max = Math.max(1, known);
    bar.value = p.pagesDone;
    bar.setAttribute('aria-label', `Pages of the run of ${run.url}`);
    const count = document.createElement('span');
    count.className = 'progress-text';
    count.textContent = `${p.pagesDone} of ${known} pages`;
    progress.append(bar, count);
    cell(row, String(p.findings));
    const view = document.createElement('button');
    view.type = 'button';
    view.className = 'view-run';
    view.textContent = 'View';
    const which = document.createElement('span');
    which.className = 'visually-hidden';
    which.textContent = ` the run of ${run.url} started ${when(run.createdAt)}`;
    view.append(which);
    view.addEventListener('click', () => {
      history.replaceState(null, '', `#run=${run.id}`);
      showRun(run.id, true);
    });
    cell(row).append(view);
    return row;
  }

  function putRow(run) {
    const body = document.querySelector('#runs tbody');
    const row = runRow(run);
    const old = body.querySelector(`tr[data-run="${run.id}"]`);
    if (old) old.replaceWith(row);
    else body.prepend(row);
  }

  async function loadRuns() {
    const status = byId('runs-status');
    try {
      const body = await getJson('/audits?limit=50');
      const rows = document.querySelector('#runs tbody');
      rows.replaceChildren(...body.runs.map(runRow));
      status.textContent = body.runs.length ? `${body.runs.length} runs.` : 'No runs yet.';
      body.runs.filter((run) => ACTIVE.has(run.status)).forEach((run) => follow(run.id));
    } catch (error) {
      status.textContent = `The runs could not be loaded: ${error.message}`;
    }
  }

  async function refresh(id) {
    refreshTimers.delete(id);
    const run = await getJson(`/audits/${id}?limit=1`);
    putRow(run);
    if (shown === id) showFacts(run);
    if (!ACTIVE.has(run.status) && shown === id && !byId('run').dataset.loaded) showRun(id, false);
    return run;
  }

  function refreshSoon(id) {
    if (refreshTimers.has(id)) return;
    const later = () => refresh(id).catch((error) => {
      byId('runs-status').textContent = `A run could not be refreshed: ${error.message}`;
    });
    refreshTimers.set(id, setTimeout(later, REFRESH_MS));
  }

  // The run's event stream, read with fetch (EventSource cannot send the token): each event
  // refreshes its row; the stream ends after run.done.
  async function follow(id) {
    if (streams.has(id)) return;
    const controller = new AbortController();
    streams.set(id, controller);
    try {
      const response = await api(`/audits/${id}/events`, {signal: controller.signal});
      if (!response.ok || !response.body) return;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          if (/^event: /m.test(buffer.slice(0, end))) refreshSoon(id);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch (error) {
      if (error.name !== 'AbortError') byId('runs-status').textContent = `Progress of a run stopped: ${error.message}`;
    } finally {
      streams.delete(id);
      refreshSoon(id);
    }
  }

  byId('runs-refresh').addEventListener('click', loadRuns);

  // ------------------------------------------------------------------ starting an audit

  byId('start-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.target;
    const status = byId('start-status');
    const number = (input) => (input.value === '' ? undefined : Number(input.value));
    const request = {
      url: form.elements.url.value.trim(),
      level: form.elements.level.value,
      crawl: {
        enabled: form.elements.crawl.checked,
        depth: number(form.elements.depth),
        maxPages: number(form.elements.maxPages),
      },
    };
    status.textContent = 'Starting…';
    try {
      const response = await api('/audits', {
        method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(request),
      });
      const body = await answer(response);
      if (response.status !== 202) {
        status.textContent = `Not started: ${problem(body, `the service answered ${response.status}.`)}`;
        return;
      }
      status.textContent = `Started run ${body.id}.`;
      await refresh(body.id);
      follow(body.id);
    } catch (error) {
      status.textContent = `Not started: ${error.message}`;
    }
  });

  // ------------------------------------------------------------------ one run

  function showFacts(run) {
    const facts = byId('run-facts');
    const items = [
      ['Run', run.id], ['Address', run.url], ['Status', run.status], ['Started', when(run.createdAt)],
      ['Finished', when(run.finishedAt) || 'not yet'],
      ['Pages done', String(run.progress.pagesDone)], ['Findings', String(run.progress.findings)],
    ];
    if (run.error) items.push(['Error', `${run.error.code}: ${run.error.message}`]);
    facts.replaceChildren(...items.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      return [dt, dd];
    }));
  }

  function forgetImages() {
    objectUrls.forEach((url) => URL.revokeObjectURL(url));
    objectUrls = [];
  }

  async function loadImages(id, root) {
    for (const img of root.querySelectorAll('img[data-artifact]')) {
      try {
        const response = await api(`/audits/${id}/artifacts/${img.dataset.artifact}`);
        if (!response.ok || shown !== id) continue;
        const url = URL.createObjectURL(await response.blob());
        objectUrls.push(url);
        img.src = url;
      } catch {
        img.alt += ' (could not be loaded)';
      }
    }
  }

  async function showRun(id, focus) {
    const section = byId('run');
    const status = byId('run-status');
    const report = byId('run-report');
    shown = id;
    forgetImages();
    delete section.dataset.loaded;
    section.hidden = false;
    section.dataset.run = id;
    byId('run-h').textContent = `Run ${id}`;
    report.replaceChildren();
    byId('diff').replaceChildren();
    if (focus) section.focus();
    let run;
    try {
      run = await getJson(`/audits/${id}?limit=1`);
    } catch (error) {
      status.textContent = `The run could not be loaded: ${error.message}`;
      return;
    }
    // Titled by what a person knows it by: the site and when it ran (the id is in the facts).
    byId('run-h').textContent = `${siteOf(run.url)}, ${when(run.createdAt)}`;
    showFacts(run);
    byId('set-baseline').disabled = run.status !== 'completed';
    if (run.status !== 'completed') {
      status.textContent = ACTIVE.has(run.status)
        ? 'The report appears here when the run is completed.'
        : 'This run did not complete, so it has no report.';
      return;
    }
    section.dataset.loaded = 'yes';
    status.textContent = 'Loading the report…';
    const response = await api(`/dashboard/audits/${id}/report`);
    if (!response.ok) {
      status.textContent = problem(await answer(response), 'The report could not be loaded.');
      return;
    }
    const html = await response.text();
    if (shown !== id) return;
    report.innerHTML = html;  // the service's own report, every page string escaped
    const root = report.querySelector('.a11y-report');
    if (root && globalThis.a11yReport) globalThis.a11yReport.init(root);
    status.textContent = 'The report is below.';
    await Promise.all([loadDiff(run), root ? loadImages(id, root) : null]);
  }

  function findingList(title, findings) {
    const part = document.createElement('div');
    const heading = document.createElement('h4');
    heading.textContent = `${title} (${findings.length})`;
    const list = document.createElement('ul');
    list.className = 'diff-list';
    for (const f of findings) {
      const item = document.createElement('li');
      item.textContent = `${f.ruleId} (${f.impact}): ${f.selector} on ${f.pageUrl}`;
      list.append(item);
    }
    part.append(heading, list);
    return part;
  }

  async function loadDiff(run) {
    const diff = byId('diff');
    const note = document.createElement('p');
    diff.replaceChildren(note);
    const response = await api(`/audits/${run.id}/diff?against=baseline`);
    const body = await answer(response);
    if (shown !== run.id) return;
    if (response.status === 404 && body && body.error && /endpoint/i.test(body.error.message)) {
      note.textContent = 'This service does not compare runs.';
    } else if (response.status === 404) {
      note.textContent = 'The site has no baseline yet: make a run its baseline to see what changed since.';
    } else if (!response.ok) {
      note.textContent = problem(body, `No comparison: the service answered ${response.status}.`);
    } else {
      const c = body.counts;
      note.textContent = `Against the baseline run ${body.against}: ${c.new} new, ${c.fixed} fixed, ` +
        `${c.unchanged} unchanged findings.`;
      if (body.new.length) diff.append(findingList('New findings', body.new));
      if (body.fixed.length) diff.append(findingList('Fixed findings', body.fixed));
    }
  }

  byId('set-baseline').addEventListener('click', async () => {
    const id = shown;
    const status = byId('run-status');
    if (!id) return;
    try {
      const run = await getJson(`/audits/${id}?limit=1`);
      const site = new URL(run.url).origin;
      const response = await api(`/sites/${encodeURIComponent(site)}/baseline`, {
        method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({run: id}),
      });
      if (!response.ok) {
        status.textContent = problem(await answer(response), 'The baseline could not be set.');
        return;
      }
      status.textContent = `This run is now the baseline of ${site}.`;
      await loadDiff(run);
    } catch (error) {
      status.textContent = `The baseline could not be set: ${error.message}`;
    }
  });

  loadRights().then(loadRuns);
  const linked = /^#run=([0-9a-z]+)$/.exec(location.hash);  // a link to one run's view
  if (linked) showRun(linked[1], false);
})();
