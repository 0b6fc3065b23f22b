/* The settings page's own script (settings.html, http-api v1.4 "Settings in a person's words"): every
   key of GET /api/settings in its section (settings-controls.js draws each), the everyday keys first
   and the rest under "More options"; one Save per section sends the keys changed there in one
   POST /api/settings (all or nothing: a refusal under its field, nothing changed); "Undo my change"
   is POST /api/settings/reset. Keys that apply at the next start go to the restart banner
   (settings-restart.js). Then backup (a download) and restore. */
'use strict';
(() => {
  const { el, $ } = NC;
  const C = SettingsControls;
  const w = C.w;
  NC.topbar('settings');
  /* The sections by key, in order; a key no section names goes to the last, so every key is shown. */
  const SECTIONS = [
    ['s_sound', (k) => k.startsWith('audio.') || k.startsWith('speech.')],
    ['s_time', (k) => k === 'timezone' || k === 'locale'],
    ['s_broker', (k) => k.startsWith('mqtt.') || k === 'node_id' || k.startsWith('home_assistant.')],
    ['s_devices', (k) => k.startsWith('devices.')],
    ['s_buttons', (k) => k === 'buttons' || k.startsWith('button_timing.')],
    ['s_radio', (k) => k.startsWith('stream.')],
    ['s_web', (k) => k.startsWith('web.')],
    ['s_other', () => true],
  ];
  /* What most people change; every other key waits under its section's "More options". */
  const EVERYDAY = new Set(['audio.device', 'speech.enabled', 'speech.volume', 'timezone', 'locale', 'mqtt.host', 'mqtt.port',
    'mqtt.username', 'mqtt.password', 'devices.light.topic', 'devices.shaker.topic', 'stream.fallback_noise']);
  let current = null; // the last answer of GET/POST /api/settings
  const opened = new Set(); // sections whose "More options" the person opened (kept across redraws)

  function section(title, keys) {
    const everyday = keys.filter((k) => EVERYDAY.has(k));
    const more = keys.filter((k) => !EVERYDAY.has(k));
    const rows = new Map(keys.map((k) => [k, C.row(k, current, reset)]));
    const note = el('p', { class: 'note', 'data-nc': 'section-note', role: 'status' });
    const err = el('div', { class: 'error', 'data-nc': 'section-error', hidden: true });
    const details = more.length ? el('details', { class: 'more', 'data-nc': 'more-options', open: opened.has(title) || null },
      el('summary', { text: w('more', { n: more.length }) }), more.map((k) => rows.get(k))) : null;
    if (details) details.addEventListener('toggle', () => { if (details.open) opened.add(title); else opened.delete(title); });
    const editable = [...rows.values()].some((r) => r.editable);
    const form = el('form', { class: 'card', 'data-nc': 'settings-section', 'data-section': title, 'aria-labelledby': 'h-' + title, novalidate: true },
      everyday.map((k) => rows.get(k)), details,
      editable ? el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'btn primary', 'data-nc': 'section-save', text: w('save') })) : null,
      note, err);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const changed = [...rows.values()].filter((r) => r.changed());
      if (!changed.length) { note.textContent = w('unchanged'); return; }
      const body = {};
      changed.forEach((r) => { body[r.dataset.key] = r.value(); });
      send('settings', body, form);
    });
    return [el('h2', { id: 'h-' + title, text: w(title) }), form];
  }

  function reset(key) {
    const form = document.querySelector(`[data-nc="setting"][data-key="${key}"]`).closest('form');
    send('settings/reset', { keys: [key] }, form);
  }

  /* A change or a reset: a refusal under its field (or the section), nothing redrawn, nothing
     changed; else the page drawn again from the answer, "Saved" in the section. */
  async function send(command, body, form) {
    const title = form.dataset.section;
    form.querySelectorAll('[data-nc="setting-error"], [data-nc="section-error"]').forEach((e) => { e.hidden = true; });
    form.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    const answer = await NC.post(command, body);
    form.querySelectorAll('button').forEach((b) => { b.disabled = false; });
    if (!answer || !answer.values) {
      const field = answer && answer.error && answer.error.field;
      const under = field && form.querySelector(`[data-nc="setting"][data-key="${field}"] [data-nc="setting-error"]`);
      C.refusal(under || form.querySelector('[data-nc="section-error"]'), answer, field ? C.label(field) : null);
      if (under) { const more = under.closest('details.more'); if (more) more.open = true; }
      return;
    }
    const keys = command === 'settings' ? Object.keys(body) : body.keys;
    const later = keys.filter((k) => answer.applies[k] === 'restart');
    current = answer;
    // The page's language and zone are the node's (NC.state.node): a change of either, applied at
    // once, turns this page with it.
    const node = NC.state.node || {};
    if (node.locale !== answer.values.locale || node.timezone !== answer.values.timezone) {
      NC.put('node', Object.assign({}, node, { locale: answer.values.locale, timezone: answer.values.timezone }));
    }
    if (later.length) SettingsRestart.add(later);
    draw();
    const again = document.querySelector(`[data-nc="settings-section"][data-section="${title}"] [data-nc="section-note"]`);
    if (again) again.textContent = w(later.length ? 'saved_restart' : 'saved');
  }

  /* The 12/24-hour default is the clock style's use_24_hour (~/style/set), not a file key: a
     switch of its own in Time and language, following ~/style. */
  function clockRow() {
    const on = !(NC.state.style && NC.state.style.use_24_hour === false);
    const input = el('input', { type: 'checkbox', role: 'switch', id: 's-24h', 'aria-labelledby': 's-24h-label', checked: on });
    const err = el('p', { class: 'error', hidden: true });
    input.addEventListener('change', async () => NC.report(err, await NC.post('style/set', { use_24_hour: input.checked })));
    return el('div', { class: 'setting', 'data-nc': 'clock-24h' },
      el('div', { class: 'head' }, el('label', { for: 's-24h', class: 'name', id: 's-24h-label', text: NC.t('use_24_hour') })),
      el('div', { class: 'edit' }, el('label', { class: 'switch' }, input)), err);
  }
  NC.on('style', (st) => { const i = $('#s-24h'); if (i && st) i.checked = st.use_24_hour !== false; });

  function draw() {
    $('#intro').textContent = w('intro');
    $('#backup-title').textContent = w('backup');
    $('#backup-note').textContent = w('backup_note');
    $('#backup').textContent = w('download');
    $('#restore-label').textContent = w('restore_file');
    $('#restore').textContent = w('restore');
    SettingsRestart.draw();
    if (!current) return;
    const box = $('#sections');
    box.textContent = '';
    const left = Object.keys(current.values);
    SECTIONS.forEach(([title, belongs]) => {
      const keys = left.filter(belongs);
      keys.forEach((key) => left.splice(left.indexOf(key), 1));
      if (!keys.length) return;
      const [h, form] = section(title, keys);
      if (title === 's_time') form.insertBefore(clockRow(), form.querySelector('.actions'));
      box.append(h, form);
    });
    // settings-sound.js, settings-devices.js and settings-lockout.js add their parts.
    document.dispatchEvent(new CustomEvent('nc-settings-drawn', { detail: current }));
  }

  async function load() {
    try {
      const [r, d] = await Promise.all([fetch('/api/settings', { cache: 'no-store' }),
        fetch('/api/audio/devices', { cache: 'no-store' }).catch(() => null)]);
      const answer = await r.json();
      if (d && d.ok) C.setDevices(await d.json());
      if (!answer.values) { C.refusal($('#load-error'), answer, null); return; }
      current = answer;
    } catch (e) {
      C.refusal($('#load-error'), { ok: false, error: { message: String(e.message || e) } }, null);
      return;
    }
    draw();
  }

  $('#restore-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const file = $('#restore-file').files[0];
    $('#restore-result').textContent = '';
    $('#restore-error').hidden = true;
    if (!file) { $('#restore-error').textContent = w('no_file'); $('#restore-error').hidden = false; return; }
    $('#restore').disabled = true;
    const answer = await NC.post('restore', await file.text());
    $('#restore').disabled = false;
    if (!answer.ok) {
      $('#restore-error').textContent = '';
      $('#restore-error').append(el('span', { text: w('restore_bad') }), el('details', { class: 'why' },
        el('summary', { text: w('details') }), el('p', { text: (answer.error && answer.error.message) || '' })));
      $('#restore-error').hidden = false;
    }
    if (answer.ok && answer.result) {
      const n = answer.result.restored || {};
      $('#restore-result').textContent = w('restored', { n: answer.result.from_node, a: n.alarms, r: n.routines, p: n.timer_presets, m: n.mixes });
      load();
    }
  });

  NC.settingsReload = load;
  // A change of locale (here or anywhere) arrives as ~/node: the page redraws in that language.
  NC.on('node', draw);
  draw();
  NC.start().then(load);
})();
