/* The settings page's own script (settings.html): every key of GET /api/settings in its section,
   with its value, its source (default / file / here / environment) and when a change applies;
   a change is POST /api/settings (a refusal shown under its field, in the server's words), "back
   to the file's value" is POST /api/settings/reset. Then backup (a download) and restore. */
'use strict';
(() => {
  const { el, $ } = NC;
  NC.topbar('settings');
  const WORDS = {
    en: {
      intro: 'Values changed here are kept on the node (settings.json) and win over the configuration file; '
        + 'an environment variable wins over both.',
      s_sound: 'Sound', s_time: 'Time and language', s_broker: 'Broker', s_devices: 'Lamp and bed shaker', s_buttons: 'Buttons',
      s_sounds_dir: 'Sounds folder', s_web: 'Web', s_other: 'Other',
      src_default: 'default', src_file: 'file', src_web: 'here', src_environment: 'environment',
      now: 'applies now', restart: 'applies after restart', save: 'Save', reset: 'Back to the file’s value',
      locked: 'set by {v}', fixed: 'Only in the file: {r}', secret_set: 'set', secret_unset: 'not set',
      secret_hint: 'write-only: type a new one to change it', json_hint: 'JSON', list_hint: 'comma-separated',
      saved: 'Saved.', saved_restart: 'Saved: applies after the node restarts.',
      backup: 'Backup', backup_note: 'One file with the settings changed here, alarms, routines, timer presets, mixes and style '
        + '(no secrets). Restoring it replaces them all, or changes nothing.',
      download: 'Download backup', restore_file: 'Restore from file', restore: 'Restore', no_file: 'Choose a backup file first.',
      restored: 'Restored from {n}: {a} alarms, {r} routines, {p} timer presets, {m} mixes.',
      style_note: 'the clock style (also on the Style page): applies now',
    },
    ko: {
      intro: '여기서 바꾼 값은 노드(settings.json)에 저장되어 설정 파일보다 우선합니다. 환경 변수는 둘 다보다 우선합니다.',
      s_sound: '소리', s_time: '시간과 언어', s_broker: '브로커', s_devices: '조명과 침대 진동기', s_buttons: '버튼',
      s_sounds_dir: '소리 폴더', s_web: '웹', s_other: '기타',
      src_default: '기본값', src_file: '파일', src_web: '여기', src_environment: '환경 변수',
      now: '바로 적용', restart: '다시 시작하면 적용', save: '저장', reset: '파일의 값으로 되돌리기',
      locked: '{v}로 정해짐', fixed: '설정 파일에서만: {r}', secret_set: '설정됨', secret_unset: '설정 안 됨',
      secret_hint: '쓰기 전용: 바꾸려면 새 값을 입력하세요', json_hint: 'JSON', list_hint: '쉼표로 구분',
      saved: '저장됨.', saved_restart: '저장됨: 노드를 다시 시작하면 적용됩니다.',
      backup: '백업', backup_note: '여기서 바꾼 설정, 알람, 루틴, 타이머 프리셋, 믹스, 스타일을 담은 파일 하나(비밀 값 제외). '
        + '복원하면 모두 바뀌거나, 아무것도 바뀌지 않습니다.',
      download: '백업 내려받기', restore_file: '파일에서 복원', restore: '복원', no_file: '먼저 백업 파일을 고르세요.',
      restored: '{n}에서 복원함: 알람 {a}개, 루틴 {r}개, 타이머 프리셋 {p}개, 믹스 {m}개.',
      style_note: '시계 스타일 (스타일 화면에도 있음): 바로 적용',
    },
  };
  function w(key, vars) {
    let s = (WORDS[NC.lang()] || WORDS.en)[key] || WORDS.en[key] || key;
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  /* The sections, by key; a key no section names goes to Other, so every key is shown. */
  const SECTIONS = [
    ['s_sound', (k) => k.startsWith('audio.') && k !== 'audio.sounds_dir' || k.startsWith('speech.')],
    ['s_time', (k) => k === 'timezone' || k === 'locale'],
    ['s_broker', (k) => k.startsWith('mqtt.') || k === 'node_id' || k.startsWith('home_assistant.')],
    ['s_devices', (k) => k.startsWith('devices.')],
    ['s_buttons', (k) => k === 'buttons' || k.startsWith('button_timing.')],
    ['s_sounds_dir', (k) => k === 'audio.sounds_dir'],
    ['s_web', (k) => k.startsWith('web.')],
    ['s_other', () => true],
  ];
  /* Keys with a fixed set of values (the file's own list): a menu instead of a text field. */
  const CHOICES = {
    locale: ['en', 'ko'], 'mqtt.protocol': ['5', '3.1.1'], 'web.auth': ['token', 'none'],
    log_level: ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'],
    'devices.light.protocol': ['zigbee2mqtt', 'tasmota'], 'devices.shaker.protocol': ['zigbee2mqtt', 'tasmota'],
  };
  const isSecret = (key) => /password$|secret$/.test(key);
  const envName = (key) => 'NOISECLOCK_' + key.toUpperCase().replace(/\./g, '_');
  const idOf = (key) => 's-' + key.replace(/[^a-z0-9]/gi, '-');
  let current = null; // the last answer of GET/POST /api/settings
  let zones = null;

  /* How a value is edited: a switch, a number, a list of names, JSON (the buttons), or text. */
  function kind(key, value) {
    if (typeof value === 'boolean') return 'bool';
    if (CHOICES[key]) return 'choice';
    if (typeof value === 'number') return 'number';
    if (Array.isArray(value) && value.every((v) => typeof v === 'string') && key !== 'buttons') return 'list';
    if (value !== null && typeof value === 'object' || key === 'buttons') return 'json';
    return 'text';
  }
  function shown(k, value) {
    if (value === null || value === undefined) return '';
    if (k === 'list') return value.join(', ');
    if (k === 'json') return JSON.stringify(value, null, 1);
    return String(value);
  }
  function read(k, input) {
    if (k === 'bool') return input.checked;
    const text = input.value.trim();
    if (text === '') return k === 'list' ? [] : null;
    if (k === 'number') return Number(text);
    if (k === 'list') return text.split(',').map((s) => s.trim()).filter(Boolean);
    if (k === 'json') { try { return JSON.parse(text); } catch (e) { return text; } }
    return input.value;
  }

  function row(key) {
    const value = current.values[key];
    const source = current.sources[key];
    const fixed = (current.not_settable || {})[key];
    const locked = source === 'environment';
    const k = kind(key, value);
    const id = idOf(key);
    const err = el('p', { class: 'error', id: id + '-error', 'data-nc': 'setting-error', hidden: true });
    const note = el('p', { class: 'note', 'data-nc': 'setting-note', role: 'status' });
    let input;
    if (k === 'bool') input = el('input', { id, type: 'checkbox', role: 'switch', checked: value === true, 'aria-label': key });
    else if (k === 'choice') {
      const names = CHOICES[key].includes(value) || value === null ? CHOICES[key] : [value].concat(CHOICES[key]);
      input = el('select', { id }, names.map((n) => el('option', { value: n, text: n })));
    }
    else if (k === 'json') input = el('textarea', { id, spellcheck: 'false', rows: 4 });
    else if (isSecret(key)) input = el('input', { id, type: 'password', autocomplete: 'new-password', placeholder: w(value ? 'secret_set' : 'secret_unset') });
    else input = el('input', { id, type: k === 'number' ? 'number' : 'text', step: k === 'number' ? 'any' : null, autocomplete: 'off', spellcheck: 'false' });
    if (k !== 'bool' && !isSecret(key)) input.value = shown(k, value);
    if (key === 'timezone' && zones) input.setAttribute('list', 'zones');
    input.setAttribute('aria-describedby', id + '-about ' + id + '-error');
    input.disabled = locked || !!fixed;
    const about = locked ? w('locked', { v: envName(key) }) : fixed ? w('fixed', { r: fixed })
      : isSecret(key) ? w(value ? 'secret_set' : 'secret_unset') + ' · ' + w('secret_hint')
      : k === 'list' ? w('list_hint') : k === 'json' ? w('json_hint') : '';
    const form = el('form', { class: 'setting', 'data-nc': 'setting', 'data-key': key, 'data-source': source, novalidate: true },
      el('div', { class: 'head' },
        // A switch is named by its own label (its 44 px target), the others by the key's name here.
        k === 'bool' ? el('span', {}, el('code', { text: key })) : el('label', { for: id }, el('code', { text: key })),
        el('span', { class: 'source', 'data-nc': 'setting-source', 'data-source': source, text: w('src_' + source) }),
        el('span', { class: 'note', 'data-nc': 'setting-applies', text: w(current.applies[key]) })),
      el('div', { class: 'edit' }, k === 'bool' ? el('label', { class: 'switch' }, input) : input,
        locked || fixed ? null : el('button', { type: 'submit', class: 'btn', text: w('save') }),
        source === 'web' ? el('button', { type: 'button', class: 'btn', 'data-nc': 'setting-reset', text: w('reset'),
          onclick: () => send('settings/reset', { keys: [key] }, form, err, note) }) : null),
      el('p', { class: 'note', id: id + '-about', 'data-nc': locked ? 'setting-locked' : null, text: about, hidden: !about }),
      err, note);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (isSecret(key) && input.value === '') return;
      send('settings', { [key]: read(k, input) }, form, err, note);
    });
    return form;
  }

  /* A change or a reset: the refusal under the field (nothing redrawn, nothing changed), else
     every row drawn again from the answer, with "Saved" under the key that changed. */
  async function send(command, body, form, err, note) {
    form.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    const answer = await NC.post(command, body);
    form.querySelectorAll('button').forEach((b) => { b.disabled = false; });
    if (!answer || !answer.values) { NC.report(err, answer); return; }
    current = answer;
    const key = form.dataset.key;
    // The page's language and zone are the node's (NC.state.node, read when the page loaded): a
    // change of either, applied at once, turns this page with it.
    const node = NC.state.node || {};
    if (node.locale !== answer.values.locale || node.timezone !== answer.values.timezone) {
      NC.put('node', Object.assign({}, node, { locale: answer.values.locale, timezone: answer.values.timezone }));
    }
    draw();
    const again = document.querySelector(`[data-nc="setting"][data-key="${key}"]`);
    if (again) again.querySelector('[data-nc="setting-note"]').textContent = w(answer.applies[key] === 'now' ? 'saved' : 'saved_restart');
  }

  /* The 12/24-hour default is the clock style's use_24_hour (~/style/set), not a file key: a
     switch of its own in Time and language, following ~/style. */
  function clockRow() {
    const on = !(NC.state.style && NC.state.style.use_24_hour === false);
    const input = el('input', { type: 'checkbox', role: 'switch', id: 's-24h', 'aria-label': NC.t('use_24_hour'), checked: on });
    const err = el('p', { class: 'error', hidden: true });
    input.addEventListener('change', async () => NC.report(err, await NC.post('style/set', { use_24_hour: input.checked })));
    return el('div', { class: 'setting', 'data-nc': 'clock-24h' },
      el('div', { class: 'head' }, el('span', { text: NC.t('use_24_hour') }), el('span', { class: 'note', text: w('style_note') })),
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
    if (!current) return;
    const box = $('#sections');
    box.textContent = '';
    const left = Object.keys(current.values);
    SECTIONS.forEach(([title, belongs]) => {
      const keys = left.filter(belongs);
      keys.forEach((key) => left.splice(left.indexOf(key), 1));
      if (!keys.length) return;
      const hid = 'h-' + title;
      box.append(el('h2', { id: hid, text: w(title) }),
        el('section', { class: 'card', 'data-nc': 'settings-section', 'aria-labelledby': hid }, keys.map(row),
          title === 's_time' ? clockRow() : null));
    });
    // settings-sound.js and settings-lockout.js add their parts (the latter reads the answer: detail).
    document.dispatchEvent(new CustomEvent('nc-settings-drawn', { detail: current }));
  }

  async function load() {
    try {
      const r = await fetch('/api/settings', { cache: 'no-store' });
      const answer = await r.json();
      if (!answer.values) { NC.report($('#load-error'), answer); return; }
      current = answer;
    } catch (e) {
      NC.report($('#load-error'), { ok: false, error: { message: String(e.message || e) } });
      return;
    }
    draw();
  }

  /* The IANA zones the browser knows, as suggestions for the time zone (the node checks the name). */
  if (Intl.supportedValuesOf) {
    zones = el('datalist', { id: 'zones' }, Intl.supportedValuesOf('timeZone').map((z) => el('option', { value: z })));
    document.body.append(zones);
  }

  $('#restore-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const file = $('#restore-file').files[0];
    $('#restore-result').textContent = '';
    if (!file) { NC.report($('#restore-error'), { ok: false, error: { message: w('no_file') } }); return; }
    $('#restore').disabled = true;
    const answer = await NC.post('restore', await file.text());
    $('#restore').disabled = false;
    NC.report($('#restore-error'), answer);
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
