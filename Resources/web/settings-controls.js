/* One key of the settings page (settings.js) as a person sees it: its label and one-line help in
   the page's language, the key's own name only as a small hint, a control that fits the value
   (select, searchable zone list, switch, slider, number with its unit, password), a quiet source
   badge. A row carries value(): what its control says now, in the API's shape. */
'use strict';
const SettingsControls = (() => {
  const { el } = NC;
  const lang = () => NC.lang();
  function w(key, vars) {
    let s = (SettingsWords[lang()] || SettingsWords.en)[key] ?? SettingsWords.en[key] ?? key;
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  /* A key's label and help; a key no table names yet shows a readable form of its name. */
  const words = (key) => (SettingsKeyWords[key] || {})[lang()] || (SettingsKeyWords[key] || {}).en
    || [key.split('.').pop().replace(/_/g, ' '), ''];
  const label = (key) => words(key)[0];
  const isSecret = (key) => /password$|secret$/.test(key);
  const idOf = (key) => 's-' + key.replace(/[^a-z0-9]/gi, '-');
  const SLIDERS = { 'speech.volume': [0, 100, 5] };
  let devices = null; // GET /api/audio/devices

  function kind(key, value) {
    if (key === 'audio.device') return 'device';
    if (key === 'timezone') return 'zone';
    if (typeof value === 'boolean') return 'bool';
    if (SettingsChoices[key]) return 'choice';
    if (SLIDERS[key]) return 'slider';
    if (typeof value === 'number') return 'number';
    if (key === 'buttons') return 'json';
    if (Array.isArray(value)) return 'list';
    if (value !== null && typeof value === 'object') return 'json';
    return 'text';
  }
  const option = (value, text, selected) => el('option', { value, text, selected: selected || null });

  function deviceOptions(value) {
    const listed = devices || [];
    const named = (d) => d.description || w('device_unnamed', { n: d.name });
    const options = listed.map((d) => option(d.name, named(d), d.name === value));
    if (!listed.some((d) => d.name === value)) options.unshift(option(value, w('device_unnamed', { n: value }), true));
    return options;
  }

  /* The zones the browser knows, filtered by a search field above the list; the value is the list's. */
  function zoneControl(id, value) {
    const all = ['system'].concat(Intl.supportedValuesOf ? Intl.supportedValuesOf('timeZone') : []);
    if (!all.includes(value)) all.splice(1, 0, value);
    const shown = (z) => (z === 'system' ? w('zone_system') : z.replace(/_/g, ' '));
    const select = el('select', { id });
    const search = el('input', { type: 'search', id: id + '-search', 'data-nc': 'zone-search', autocomplete: 'off',
      placeholder: w('zone_search'), 'aria-label': w('zone_search') });
    const fill = () => {
      const q = search.value.trim().toLowerCase().replace(/[\s_]+/g, ' ');
      const keep = select.value || value;
      const hits = all.filter((z) => !q || z.toLowerCase().replace(/_/g, ' ').includes(q) || shown(z).toLowerCase().includes(q));
      select.replaceChildren(...(hits.length ? hits : [keep]).slice(0, 400).map((z) => option(z, shown(z), z === keep)));
      if (q && hits.length && !hits.includes(keep)) select.value = hits[0];
    };
    search.addEventListener('input', fill);
    fill();
    select.value = value;
    return { input: select, extra: search };
  }

  function control(key, k, value, id) {
    if (k === 'bool') return { input: el('input', { id, type: 'checkbox', role: 'switch', checked: value === true }) };
    if (k === 'device') return { input: el('select', { id }, deviceOptions(value)) };
    if (k === 'zone') return zoneControl(id, value);
    if (k === 'choice') {
      const names = SettingsChoices[key][lang()] || SettingsChoices[key].en;
      const values = Object.keys(names);
      if (value !== null && !values.includes(String(value))) values.unshift(String(value));
      return { input: el('select', { id }, values.map((v) => option(v, names[v] || v, v === String(value)))) };
    }
    if (k === 'slider') {
      const [min, max, step] = SLIDERS[key];
      const input = el('input', { id, type: 'range', min, max, step, value: value ?? min });
      const out = el('output', { for: id, class: 'unit', text: input.value + ' ' + unit(key) });
      input.addEventListener('input', () => { out.textContent = input.value + ' ' + unit(key); });
      return { input, after: out };
    }
    if (k === 'json') return { input: el('textarea', { id, spellcheck: 'false', rows: 3, text: value === null ? '' : JSON.stringify(value) }) };
    if (isSecret(key)) return { input: el('input', { id, type: 'password', autocomplete: 'new-password' }) };
    const input = el('input', { id, type: k === 'number' ? 'number' : 'text', step: k === 'number' ? 'any' : null,
      inputmode: k === 'number' ? 'decimal' : null, autocomplete: 'off', spellcheck: 'false' });
    input.value = value === null || value === undefined ? '' : k === 'list' ? value.join(', ') : String(value);
    return { input, after: unit(key) ? el('span', { class: 'unit', text: unit(key) }) : null };
  }
  const unit = (key) => ((SettingsKeyWords[key] || {}).unit ? w('unit_' + SettingsKeyWords[key].unit) : '');

  function read(k, input, value) {
    if (k === 'bool') return input.checked;
    const text = input.value.trim();
    if (k === 'choice' && typeof value === 'number') return Number(text);
    if (text === '') return k === 'list' ? [] : null;
    if (k === 'number' || k === 'slider') return Number(text);
    if (k === 'list') return text.split(',').map((s) => s.trim()).filter(Boolean);
    if (k === 'json') { try { return JSON.parse(text); } catch (e) { return text; } }
    return input.value;
  }

  function row(key, current, onReset) {
    const value = current.values[key];
    const source = current.sources[key];
    const fixed = (current.not_settable || {})[key];
    const locked = source === 'environment';
    const k = kind(key, value);
    const id = idOf(key);
    const [name, help] = words(key);
    const { input, extra, after } = control(key, k, value, id);
    input.disabled = locked || !!fixed;
    input.setAttribute('aria-describedby', id + '-help ' + id + '-error');
    const why = locked ? w('locked') : fixed ? w('fixed') : isSecret(key) ? w(value ? 'secret_set' : 'secret_unset')
      : k === 'list' ? w('list_hint') : '';
    const hint = el('span', { class: 'hint' }, el('code', { text: key }), ' · ',
      el('span', { class: 'source', 'data-nc': 'setting-source', 'data-source': source, text: w('src_' + source) }));
    const edit = el('div', { class: 'edit' }, k === 'bool' ? el('label', { class: 'switch' }, input) : input, after || null,
      source === 'web' && !locked ? el('button', { type: 'button', class: 'btn quiet', 'data-nc': 'setting-reset', text: w('reset'),
        onclick: () => onReset(key) }) : null);
    // A switch sits on its label's line; the key's name and source are a quiet hint beside the label.
    const head = el('div', { class: 'head' },
      el('div', { class: 'title' },
        el('label', { for: id, class: 'name', id: k === 'bool' ? id + '-label' : null, text: name }),
        current.applies[key] === 'restart' ? el('span', { class: 'applies', 'data-nc': 'setting-applies', text: w('restart') }) : null,
        hint),
      k === 'bool' ? edit : null);
    if (k === 'bool') input.setAttribute('aria-labelledby', id + '-label');
    const box = el('div', { class: 'setting', 'data-nc': 'setting', 'data-key': key, 'data-source': source, 'data-kind': k },
      head,
      el('p', { class: 'help', id: id + '-help' }, help, why ? ' ' : null,
        why ? el('span', { 'data-nc': locked ? 'setting-locked' : fixed ? 'setting-fixed' : null, text: why }) : null),
      extra || null, k === 'bool' ? null : edit,
      fixed ? el('details', { class: 'why' }, el('summary', { text: w('details') }), el('p', { class: 'note', text: fixed })) : null,
      el('div', { class: 'error', id: id + '-error', 'data-nc': 'setting-error', hidden: true }));
    box.editable = !(locked || fixed);
    box.value = () => read(k, input, value);
    box.changed = () => {
      if (!box.editable) return false;
      if (isSecret(key)) return input.value !== '';
      return JSON.stringify(box.value()) !== JSON.stringify(value ?? (k === 'list' ? [] : null));
    };
    return box;
  }

  /* A refusal in the page's words, the node's own message behind Details. */
  function refusal(box, answer, keyLabel) {
    box.textContent = '';
    const message = (answer && answer.error && answer.error.message) || '';
    box.append(el('span', { text: keyLabel ? w('refused', { l: keyLabel }) : w('failed') }));
    if (message) box.append(el('details', { class: 'why' }, el('summary', { text: w('details') }), el('p', { text: message })));
    box.hidden = false;
  }

  function setDevices(list) { devices = list; }
  return { row, w, label, refusal, setDevices, idOf };
})();
