/* The timers page's own script (timers.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const { el, t, $ } = NC;
  NC.topbar('timers');
  NC.audioNotice();

  function drawPresets() {
    const box = $('#presets');
    box.textContent = '';
    (NC.state['timer/presets'] || []).forEach((p) => box.append(el('button', {
      type: 'button', class: 'btn big preset', 'data-id': p.id,
      onclick: async () => NC.report($('#start-error'), await NC.post('timer/start', { preset: p.id })) },
    el('b', { text: NC.presetLabel(p) }), el('small', { text: t('minutes', { n: p.minutes }) }))));
  }
  $('#minutes-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    const body = { minutes: Number(f.minutes.value) };
    if (f.label.value.trim()) body.label = f.label.value.trim();
    const answer = await NC.post('timer/start', body);
    NC.report($('#start-error'), answer);
    if (answer.ok) f.label.value = '';
  });

  function drawRunning() {
    const timers = NC.state.timers || [];
    const box = $('#running');
    box.textContent = '';
    if (!timers.length) box.append(el('p', { class: 'note', text: t('no_timers') }));
    timers.forEach((x) => box.append(el('div', { class: 'row timer', 'data-nc': 'timer-row', 'data-id': x.id, 'data-ends': x.ends_at, 'data-seconds': x.seconds },
      el('div', { class: 'name' }, el('b', { text: x.label }),
        el('small', { class: 'note', text: t('ends_at', { t: NC.when(x.ends_at) }) + (x.sound && x.sound !== 'none' ? ' · ' + NP.soundName(x.sound) : '') })),
      el('span', { class: 'countdown', 'data-nc': 'countdown', role: 'timer', 'aria-label': t('remaining') + ': ' + x.label }),
      el('button', { type: 'button', class: 'btn', text: t('cancel'), 'aria-label': t('cancel') + ': ' + x.label,
        onclick: async () => NC.report($('#running-error'), await NC.post('timer/cancel', x.id)) }))));
    $('#cancel-all').hidden = timers.length < 2;
    tick();
  }
  function tick() {
    document.querySelectorAll('#running .timer').forEach((row) => {
      row.querySelector('.countdown').textContent = NP.countdown(NP.secondsUntil(row.dataset.ends, Number(row.dataset.seconds)));
    });
  }
  setInterval(tick, 250);
  $('#cancel-all').addEventListener('click', async () => NC.report($('#running-error'), await NC.post('timer/cancel', 'all')));

  /* Preset editor: a row per preset (label, minutes, sound); Save sends the whole list. */
  function presetRow(p, i) {
    const id = 'p' + i;
    const sound = el('select', { id: id + 's', name: 'sound' });
    const s = NC.state.sounds || {};
    (s.alarm || []).forEach((x) => sound.append(el('option', { value: x.id, text: NC.soundName(x) })));
    if ((s.radio || []).length) sound.append(el('optgroup', { label: t('radio') }, s.radio.map((x) => el('option', { value: x.id, text: NC.soundName(x) }))));
    sound.append(el('option', { value: 'none', text: t('silent') }));
    sound.value = p.sound || 'chime';
    const row = el('div', { class: 'preset-row', 'data-id': p.id || '' },
      el('div', { class: 'field' }, el('label', { for: id + 'l', text: t('label') }),
        el('input', { id: id + 'l', type: 'text', name: 'label', maxlength: 64, value: p.label || '', autocomplete: 'off' })),
      el('div', { class: 'field' }, el('label', { for: id + 'm', text: t('timer_minutes') }),
        el('input', { id: id + 'm', type: 'number', name: 'minutes', min: 1, max: 1440, value: p.minutes || 30, inputmode: 'numeric' })),
      el('div', { class: 'field' }, el('label', { for: id + 's', text: t('sound') }), sound),
      el('button', { type: 'button', class: 'btn danger', text: t('remove'), 'aria-label': t('remove') + ': ' + (p.label ? NC.presetLabel(p) : ''),
        onclick: () => { row.remove(); $('#add-preset').hidden = false; } }));
    return row;
  }
  function readPresets() {
    const used = new Set();
    return [...document.querySelectorAll('#preset-rows .preset-row')].map((row, i) => {
      const label = row.querySelector('[name=label]').value.trim();
      let id = row.dataset.id || NP.slug(label, 'preset_' + (i + 1));
      while (used.has(id)) id += '_' + (i + 1);
      used.add(id);
      return { id, label: label || id, minutes: Number(row.querySelector('[name=minutes]').value), sound: row.querySelector('[name=sound]').value };
    });
  }
  function drawEditor() {
    const box = $('#preset-rows');
    box.textContent = '';
    const presets = NC.state['timer/presets'] || [];
    presets.forEach((p, i) => box.append(presetRow(p, i)));
    $('#add-preset').hidden = presets.length >= 10;
  }
  $('#add-preset').addEventListener('click', () => {
    const box = $('#preset-rows');
    box.append(presetRow({}, box.children.length + Date.now() % 1000));
    $('#add-preset').hidden = box.children.length >= 10;
    box.lastChild.querySelector('input').focus();
  });
  $('#preset-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    NC.report($('#preset-error'), await NC.post('timer/presets/set', readPresets()));
  });

  NC.on('timer/presets', () => { drawPresets(); drawEditor(); });
  NC.on('timers', drawRunning);
  NC.on('time', tick);
  NC.on('style', drawRunning);
  NC.on('sounds', drawEditor);
  NC.on('node', () => { drawPresets(); drawEditor(); drawRunning(); });
  NC.start();
})();
