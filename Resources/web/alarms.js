/* The alarms page's own script (alarms.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const { el, t, $ } = NC;
  NC.topbar('alarms');
  NC.audioNotice();
  const form = $('#form');
  const list = $('#list');
  const defaults = { time: '07:00', label: '', description: '', repeat: [], date: '', sound: 'digital', volume: 80, vibrate: false, snooze_minutes: 9, ramp_seconds: AlarmFade.gentle, ring_minutes: 10, pre_alarm_minutes: 0, light_minutes: 0, start_volume: 0, pre_alarm_sound: 'none', speak_time: false };
  /* The page's own words (v1.4): a second alarm like one there is asks first. */
  const WORDS = NC.words('alarms', {
    en: { duplicate: 'There is already an alarm at {t}, {r}. Add another one?', add_anyway: 'Add another',
      saved: 'Saved: {t}, {r}', added: 'Added: {t}, {r}', row_sound: 'Sound: {s}', row_fade: 'Fade in: {f}' },
    ko: { duplicate: '{t}, {r}에 울리는 알람이 이미 있습니다. 하나 더 추가할까요?', add_anyway: '하나 더 추가',
      saved: '저장됨: {t}, {r}', added: '추가됨: {t}, {r}', row_sound: '소리: {s}', row_fade: '점점 크게: {f}' },
  });
  const asked = new URLSearchParams(location.search).get('sound');
  if (asked) defaults.sound = asked;
  const w = (key, vars) => Object.entries(vars || {}).reduce((s, [k, v]) => s.replace('{' + k + '}', v), (WORDS[NC.lang()] || WORDS.en)[key]);
  /* Repeat as a phone's clock app offers it: Once, Weekdays, Weekends, Every day, then the days themselves. */
  const PRESETS = [['once', []], ['weekdays', ['mon', 'tue', 'wed', 'thu', 'fri']], ['weekends', ['sat', 'sun']], ['daily', NC.DAYS]];
  function drawPresets() {
    $('#presets').replaceChildren(...PRESETS.map(([key, days]) => el('button', { type: 'button', class: 'btn', 'data-nc': 'preset-' + key,
      'data-days': days.join(), text: t(key), onclick: () => {
        form.querySelectorAll('[name=repeat]').forEach((i) => { i.checked = days.includes(i.value); });
        repeatChanged();
      } })));
  }

  // ~/light's confirmed is null without a lamp configured.
  const hasLamp = () => !!(NC.state.light && NC.state.light.confirmed !== null);
  const drawDays = () => NC.dayChips(form, $('#days'));
  function repeatChanged() {
    const days = NC.checkedDays(form);
    $('#date-field').hidden = days.length > 0;
    $('#repeat-text').textContent = NC.repeatText(days);
    $('#presets').querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.days === days.join())));
  }
  form.addEventListener('change', (e) => { if (e.target.name === 'repeat') repeatChanged(); });
  // A tap on the time takes it whole: what is typed then replaces it (as a clock app's picker does).
  form.time.addEventListener('focus', () => { if (form.time.type === 'text') form.time.select(); });
  form.volume.addEventListener('input', () => { $('#o-volume').value = form.volume.value; });

  function drawSounds() {
    const s = NC.state.sounds || { alarm: [] };
    // The sound fill() chose, kept until the list that holds it arrives (a station's comes with ~/sounds).
    const current = form.sound.dataset.want || form.sound.value || 'digital';
    form.sound.textContent = '';
    (s.alarm || []).forEach((x) => form.sound.append(el('option', { value: x.id, text: NC.soundName(x) })));
    const stations = () => el('optgroup', { label: t('radio') }, (s.radio || []).map((x) => el('option', { value: x.id, text: NC.soundName(x) })));
    if ((s.radio || []).length) form.sound.append(stations()); // v1.3: the radio stations
    form.sound.append(el('option', { value: 'none', text: t('silent') }));
    form.sound.value = current;
    if (form.sound.value) delete form.sound.dataset.want;
    else if (form.sound.options.length) form.sound.selectedIndex = 0;
    const pre = form.pre_alarm_sound.value || 'none';
    form.pre_alarm_sound.textContent = '';
    form.pre_alarm_sound.append(el('option', { value: 'none', text: t('off') }));
    (s.noise || []).forEach((x) => form.pre_alarm_sound.append(el('option', { value: x.id, text: NC.soundName(x) })));
    if ((s.radio || []).length) form.pre_alarm_sound.append(stations());
    form.pre_alarm_sound.value = pre;
  }

  function fill(a) {
    form.reset();
    const v = Object.assign({}, defaults, a || {});
    form.time.value = v.time; form.label.value = v.label; form.description.value = v.description;
    form.date.value = v.date || ''; form.volume.value = v.volume; $('#o-volume').value = v.volume;
    form.snooze_minutes.value = String(v.snooze_minutes); AlarmFade.fill(form.ramp_seconds, v.ramp_seconds);
    form.ring_minutes.value = v.ring_minutes; form.pre_alarm_minutes.value = v.pre_alarm_minutes;
    form.light_minutes.value = v.light_minutes || 0;
    form.vibrate.checked = !!v.vibrate; form.speak_time.checked = !!v.speak_time;
    form.start_volume.value = v.start_volume || 0;
    form.sound.dataset.want = v.sound;
    drawSounds(); form.pre_alarm_sound.value = v.pre_alarm_sound || 'none';
    form.querySelectorAll('[name=repeat]').forEach((i) => { i.checked = v.repeat.includes(i.value); });
    form.id.value = a ? a.id : ''; form.id.disabled = !a;
    $('#submit').textContent = t(a ? 'save' : 'add');
    $('#form-title').textContent = t(a ? 'edit_alarm' : 'add_alarm');
    $('#cancel').hidden = !a;
    NC.formErrors(form, null);
    $('#duplicate').hidden = true;
    $('#l-ramp').textContent = AlarmFade.label();
    // Sunrise only where there is a lamp to brighten (an alarm that has one keeps it).
    $('#light-field').hidden = !hasLamp() && !v.light_minutes;
    repeatChanged();
  }

  /* An alarm at the same time on the same days (or the same date) as `body`, other than the one edited. */
  const twin = (body) => (NC.state.alarms || []).find((a) => a.id !== body.id && a.time === body.time
    && (a.repeat || []).join() === body.repeat.join() && (body.repeat.length > 0 || (a.date || '') === (body.date || '')));
  let pending = null; // the add that waits for "Add another"
  $('#duplicate-add').addEventListener('click', async () => {
    $('#duplicate').hidden = true;
    if (pending) await NC.sendForm(form, 'alarm/add', pending, (answer) => saved(answer, pending, false));
    pending = null;
  });
  $('#duplicate-cancel').addEventListener('click', () => { $('#duplicate').hidden = true; pending = null; form.time.focus(); });

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = (x) => Number(x);
    const repeat = NC.checkedDays(form);
    const body = {
      time: form.time.value, label: form.label.value.trim() || 'Alarm', description: form.description.value,
      repeat, sound: form.sound.value, volume: n(form.volume.value), vibrate: form.vibrate.checked,
      snooze_minutes: n(form.snooze_minutes.value), ramp_seconds: n(form.ramp_seconds.value),
      ring_minutes: n(form.ring_minutes.value), pre_alarm_minutes: n(form.pre_alarm_minutes.value),
      light_minutes: n(form.light_minutes.value),
    };
    // Fields of later versions (v1.1): sent only when the node has them (its alarms carry them)
    // or when they are not the default, so an older node is not refused an unknown field.
    const known = (NC.state.alarms || []).some((a) => 'start_volume' in a) || 'paused_until' in (NC.state.alarm || {});
    if (known || n(form.start_volume.value) !== 0) body.start_volume = n(form.start_volume.value);
    if (known || form.pre_alarm_sound.value !== 'none') body.pre_alarm_sound = form.pre_alarm_sound.value;
    // v1.2: speak_time likewise (a node without it refuses the field: that refusal is shown).
    if ((NC.state.alarms || []).some((a) => 'speak_time' in a) || form.speak_time.checked) body.speak_time = form.speak_time.checked;
    const editing = !form.id.disabled && form.id.value;
    if (!repeat.length && form.date.value) body.date = form.date.value; else if (editing) body.date = null;
    if (editing) body.id = form.id.value;
    const same = !editing && twin(body);
    if (same) {
      pending = body;
      $('#duplicate-text').textContent = w('duplicate', { t: NC.clockOf('T' + same.time), r: same.repeat_text || NC.repeatText(same.repeat || []) });
      $('#duplicate-add').textContent = w('add_anyway');
      $('#duplicate').hidden = false;
      $('#duplicate-add').focus();
      return;
    }
    await NC.sendForm(form, editing ? 'alarm/update' : 'alarm/add', body, (answer) => saved(answer, body, !!editing));
  });
  form.sound.addEventListener('change', () => { delete form.sound.dataset.want; });

  /* After Add or Save: the form empties, and the alarm's row says "Saved: 06:30, Weekdays" and is
     brought into view (the form going back to "Add an alarm" looked as if the change was lost). */
  let justSaved = null; // {id, text}: the row that says it was saved, until the next save or edit
  function saved(answer, body, editing) {
    fill(null);
    const result = (answer && answer.result) || {};
    const id = editing ? body.id : result.id || ((NC.state.alarms || []).find((a) => a.time === body.time) || {}).id;
    justSaved = { id, text: w(editing ? 'saved' : 'added', { t: NC.clockOf('T' + body.time), r: NC.repeatText(body.repeat) }) };
    drawList();
    showSaved();
  }
  function showSaved() {
    const row = justSaved && list.querySelector(`[data-nc="alarm-row"][data-id="${CSS.escape(justSaved.id || '')}"]`);
    if (!row) return;
    justSaved.shown = true;
    row.scrollIntoView({ block: 'center', behavior: 'instant' });
  }
  $('#cancel').addEventListener('click', () => fill(null));

  function row(a) {
    const repeating = a.repeat && a.repeat.length > 0;
    const whenText = a.enabled && a.next_trigger ? (a.skip_next ? t('skipping') + ' · ' : '') + t('next_at', { t: NC.when(a.next_trigger) }) : t('off');
    return NC.formRow('alarm', a, {
      className: 'alarm' + (a.enabled ? '' : ' off'), when: NC.clockOf('T' + a.time),
      lines: [el('small', { text: a.repeat_text + (a.description ? ' · ' + a.description : '') + (a.speak_time ? ' · ' + t('says_time') : '') }),
        el('small', { 'data-nc': 'alarm-sound', text: w('row_sound', { s: soundOf(a.sound) }) + ' · ' + w('row_fade', { f: a.ramp_seconds ? AlarmFade.name(a.ramp_seconds) : t('off') }) }),
        el('small', { text: whenText }),
        justSaved && justSaved.id === a.id ? el('p', { class: 'note ok-text', 'data-nc': 'alarm-saved', role: 'status', text: justSaved.text }) : null],
      tools: (act, edit) => [edit,
        repeating ? (a.skip_next
          ? el('button', { type: 'button', class: 'btn', text: t('unskip'), onclick: act('alarm/update', { id: a.id, skip_next: false }) })
          : el('button', { type: 'button', class: 'btn', text: t('skip_next'), onclick: act('alarm/skip') })) : null,
        el('button', { type: 'button', class: 'btn', text: t('test'), onclick: act('alarm/test') })],
      form, edit: fill, focus: 'time', confirm: 'confirm_delete',
    });
  }
  /* An alarm's sound by its name (a station's, a custom file's), as the form's picker names it. */
  function soundOf(id) {
    if (id === 'none') return t('silent');
    const s = NC.state.sounds || {};
    const found = [].concat(s.alarm || [], s.radio || []).find((x) => x.id === id);
    return found ? NC.soundName(found) : id;
  }
  function drawList() {
    const alarms = NC.state.alarms || [];
    list.textContent = '';
    if (!alarms.length) list.append(el('p', { class: 'note', text: t('no_alarms') }));
    alarms.forEach((a) => list.append(row(a)));
  }
  function drawPause() {
    const a = NC.state.alarm || {};
    const supported = 'paused_until' in a;
    $('#pause-card').hidden = $('#pause-title').hidden = !supported;
    $('#paused').textContent = a.paused_until ? t('paused_until', { d: a.paused_until }) : '';
    $('#resume').hidden = !a.paused_until;
  }
  $('#pause').addEventListener('click', async () => {
    NC.report($('#pause-error'), await NC.post('alarms/pause', { until: $('#pause-until').value }));
  });
  $('#resume').addEventListener('click', async () => { NC.report($('#pause-error'), await NC.post('alarms/resume', '')); });
  NC.on('alarm', drawPause);
  let scrolled = false;
  NC.on('alarms', () => {
    drawList();
    if (justSaved && !justSaved.shown) showSaved();
    // From the radio page's "Wake to this": the form, its station chosen, in view once the list is drawn.
    if (asked && !scrolled) { scrolled = true; form.scrollIntoView({ block: 'start' }); }
  });
  NC.on('sounds', drawList);
  NC.on('style', drawList);
  NC.on('sounds', drawSounds);
  NC.on('node', () => { drawDays(); drawPresets(); drawList(); fill(null); });
  NC.on('light', () => { if (form.id.disabled) $('#light-field').hidden = !hasLamp() && !Number(form.light_minutes.value); });
  drawDays(); drawPresets(); drawSounds(); fill(null);
  NC.start();
})();
