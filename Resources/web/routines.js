/* The routines page's own script (routines.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
(() => {
  const { el, t, $ } = NC;
  NC.topbar('routines');
  NC.audioNotice();
  const form = $('#form');
  const list = $('#list');
  const defaults = { label: '', start: '22:30', end: '06:45', duration_minutes: null, repeat: NC.DAYS, sound: 'brown', volume: 40, fade_in_seconds: 300, fade_out_seconds: 300, enabled: true };

  const drawDays = () => NC.dayChips(form, $('#days'));
  const repeatChanged = () => { $('#repeat-text').textContent = NC.repeatText(NC.checkedDays(form)); };
  function endsChanged() {
    const byDuration = form.ends.value === 'duration';
    $('#end-field').hidden = byDuration;
    $('#duration-field').hidden = !byDuration;
  }
  form.addEventListener('change', (e) => { if (e.target.name === 'repeat') repeatChanged(); if (e.target.name === 'ends') endsChanged(); });
  form.volume.addEventListener('input', () => { $('#o-volume').value = form.volume.value; });

  function fill(r) {
    form.reset();
    const v = Object.assign({}, defaults, r || {});
    form.label.value = v.label; form.start.value = v.start;
    form.ends.value = v.duration_minutes ? 'duration' : 'end';
    form.end.value = v.end || defaults.end; form.duration_minutes.value = v.duration_minutes || 480;
    form.volume.value = v.volume; $('#o-volume').value = v.volume;
    form.fade_in_seconds.value = v.fade_in_seconds; form.fade_out_seconds.value = v.fade_out_seconds;
    form.enabled.checked = v.enabled !== false;
    form.sound.dataset.want = v.sound; form.sound.value = ''; NP.soundOptions(form.sound, true);
    form.querySelectorAll('[name=repeat]').forEach((i) => { i.checked = v.repeat.includes(i.value); });
    form.id.value = r ? r.id : ''; form.id.disabled = !r;
    $('#submit').textContent = t(r ? 'save' : 'add_r');
    $('#form-title').textContent = t(r ? 'edit_routine' : 'add_routine');
    $('#cancel').hidden = !r;
    NC.formErrors(form, null); repeatChanged(); endsChanged();
  }
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const n = Number;
    const body = {
      label: form.label.value.trim() || 'Routine', start: form.start.value,
      repeat: NC.checkedDays(form),
      sound: form.sound.value, volume: n(form.volume.value), fade_in_seconds: n(form.fade_in_seconds.value),
      fade_out_seconds: n(form.fade_out_seconds.value), enabled: form.enabled.checked,
    };
    const editing = !form.id.disabled && form.id.value;
    // Only the one given: it replaces the other on update (the node refuses both, even one as null).
    if (form.ends.value === 'duration') body.duration_minutes = n(form.duration_minutes.value); else body.end = form.end.value;
    if (editing) body.id = form.id.value;
    await NC.sendForm(form, editing ? 'routine/update' : 'routine/add', body, () => fill(null));
  });
  $('#cancel').addEventListener('click', () => fill(null));

  function row(r) {
    const span = NC.clockOf('T' + r.start) + (r.end ? '–' + NC.clockOf('T' + r.end) : ' · ' + t('for_minutes', { n: r.duration_minutes }));
    const status = r.active ? t('active_until', { t: NC.when(r.ends_at) })
      : r.enabled && r.next_start ? t('starts_at', { t: NC.when(r.next_start) }) : t('off');
    return NC.formRow('routine', r, {
      className: 'alarm routine' + (r.enabled || r.active ? '' : ' off') + (r.active ? ' active' : ''), when: span,
      lines: [el('small', { text: r.repeat_text + ' · ' + NP.soundName(r.sound) + ' · ' + t('volume') + ' ' + r.volume }),
        el('small', { class: r.active ? 'ok-text' : null, 'data-nc': 'routine-status', text: status })],
      tools: (act, edit) => [
        r.active ? el('button', { type: 'button', class: 'btn primary', text: t('stop'), onclick: act('routine/stop', '') })
          : el('button', { type: 'button', class: 'btn primary', text: t('start_now'), onclick: act('routine/start') }),
        edit],
      form, edit: fill, focus: 'label', confirm: 'confirm_delete_r',
    });
  }
  function drawList() {
    const routines = NC.state.routines || [];
    list.textContent = '';
    if (!routines.length) list.append(el('p', { class: 'note', text: t('no_routines') }));
    routines.forEach((r) => list.append(row(r)));
  }
  NC.on('routines', drawList);
  NC.on('style', drawList);
  NC.on('sounds', () => { NP.soundOptions(form.sound, true); drawList(); });
  NC.on('node', () => { drawDays(); drawList(); fill(null); });
  drawDays(); fill(null);
  NC.start();
})();
