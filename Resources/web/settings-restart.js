/* The settings page's restart banner (http-api v1.4): the keys saved since the node started that
   apply only at its next start, by their labels, with "Restart now" — POST /api/restart, then
   /api/state asked until the node answers as a new process (its node.started_ms changed) — and
   the outcome in words. The keys are kept in this browser with the start they wait for, so the
   banner survives a reload and goes once the node has restarted (here or elsewhere). */
'use strict';
const SettingsRestart = (() => {
  const { el, $ } = NC;
  const STORE = 'nc-restart-pending';
  let said = null; // 'restarting', 'restarted' or 'restart_slow'

  const startedAt = (s) => (s && s.node && s.node.started_ms) || null;
  function pending() {
    try {
      const kept = JSON.parse(localStorage.getItem(STORE) || 'null');
      if (!kept || kept.started !== startedAt(NC.state)) return [];
      return kept.keys || [];
    } catch (e) { return []; }
  }
  function keep(keys) {
    if (keys.length) localStorage.setItem(STORE, JSON.stringify({ started: startedAt(NC.state), keys }));
    else localStorage.removeItem(STORE);
  }
  function add(keys) {
    keep([...new Set(pending().concat(keys))]);
    said = null;
  }

  async function state() {
    try {
      const r = await fetch('/api/state', { cache: 'no-store' });
      return r.ok ? await r.json() : null;
    } catch (e) { return null; }
  }

  /* The node answers 202 and restarts: wait (60 s at most) for an answer from a new start. */
  async function restart(button) {
    const before = startedAt(NC.state);
    button.disabled = true;
    said = 'restarting';
    draw();
    const answer = await NC.post('restart', {});
    if (!answer || answer.ok === false) {
      said = null;
      button.disabled = false;
      SettingsControls.refusal($('[data-nc="restart-error"]'), answer, null);
      return;
    }
    const deadline = Date.now() + 60000;
    while (Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 150));
      const now = await state();
      if (now && startedAt(now) && startedAt(now) !== before) {
        NC.put('node', now.node);
        keep([]);
        said = 'restarted';
        draw();
        if (NC.settingsReload) NC.settingsReload();
        return;
      }
    }
    said = 'restart_slow';
    draw();
  }

  function draw() {
    const box = $('#restart-banner');
    if (!box) return;
    const keys = pending();
    const w = SettingsControls.w;
    box.textContent = '';
    box.hidden = !keys.length && !said;
    if (box.hidden) return;
    const labels = keys.map(SettingsControls.label).join(', ');
    box.dataset.state = said || 'pending';
    box.append(el('p', { 'data-nc': 'restart-pending', text: keys.length ? w('pending', { l: labels }) : '' }),
      el('p', { role: 'status', 'data-nc': 'restart-status', text: said ? w(said) : '' }));
    if (keys.length && said !== 'restarting') {
      const button = el('button', { type: 'button', class: 'btn primary', 'data-nc': 'restart-now', text: w('restart_now') });
      button.addEventListener('click', () => restart(button));
      box.append(el('div', { class: 'actions' }, button));
    }
    box.append(el('div', { class: 'error', 'data-nc': 'restart-error', hidden: true }));
  }

  NC.on('node', draw);
  return { add, draw };
})();
