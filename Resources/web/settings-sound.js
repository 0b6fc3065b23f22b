/* The settings page's Sound part (v1.3): the audio.device field suggests ALSA's devices with their
   descriptions (GET /api/audio/devices); "Play a test chime" tries the device in the field, saved
   or not (POST /api/audio/test); a line follows ~/audio. Re-added after each redraw of settings.js. */
'use strict';
(() => {
  const { el } = NC;
  const W = {
    en: { test: 'Play a test chime', played: 'Played on {d}: the device took the chime.', ok: 'Sound output: {d} plays.',
      bad: 'Sound output: {d} does not open ({e}).', mixer: 'Mixer: {c} {s}, volume {v} %.', on: 'on', off: 'off',
      no_mixer: 'No mixer to read for this device.', muted: 'Nothing would be heard: {m}.' },
    ko: { test: '시험 차임 울리기', played: '{d}에서 울림: 장치가 차임을 받았습니다.', ok: '소리 출력: {d} 재생 중.',
      bad: '소리 출력: {d}를 열 수 없음 ({e}).', mixer: '믹서: {c} {s}, 음량 {v}%.', on: '켜짐', off: '꺼짐',
      no_mixer: '이 장치에는 읽을 믹서가 없습니다.', muted: '아무것도 들리지 않습니다: {m}.' },
  };
  const w = (k, v) => Object.entries(v || {}).reduce((s, [a, b]) => s.replace('{' + a + '}', b), (W[NC.lang()] || W.en)[k]);
  let devices = [];
  let last = null; // the last test's answer, shown again after a redraw

  function show(box, a) {
    box.textContent = '';
    if (!a) return;
    box.dataset.ok = String(!!a.ok);
    if (!a.ok) { box.append(el('span', { class: 'error', text: (a.error && a.error.message) || 'error' })); return; }
    const r = a.result, m = r.mixer;
    box.append(w('played', { d: r.device }), ' ', el('span', { 'data-nc': 'audio-mixer', text: !m ? w('no_mixer')
      : w('mixer', { c: m.control, s: w(m.switched_on === false ? 'off' : 'on'), v: m.volume_percent ?? '—' })
        + (m.muted ? ' ' + w('muted', { m: m.muted }) : '') }));
  }

  function decorate() {
    const form = document.querySelector('[data-nc="setting"][data-key="audio.device"]');
    if (!form) return;
    const input = form.querySelector('input');
    let list = document.getElementById('audio-devices');
    if (!list) document.body.append(list = el('datalist', { id: 'audio-devices' }));
    list.replaceChildren(...devices.map((d) => el('option', { value: d.name, label: d.description || d.name })));
    input.setAttribute('list', 'audio-devices');
    if (!form.querySelector('.sound-extra')) {
      const result = el('p', { class: 'note', 'data-nc': 'audio-test-result', role: 'status' });
      const button = el('button', { type: 'button', class: 'btn', 'data-nc': 'audio-test', text: w('test') });
      button.addEventListener('click', async () => {
        button.disabled = true;
        const name = input.disabled ? '' : input.value.trim();
        last = await NC.post('audio/test', name ? { device: name } : '');
        button.disabled = false;
        show(result, last);
      });
      form.append(el('div', { class: 'sound-extra' }, el('p', { class: 'note', 'data-nc': 'device-description' }),
        el('div', { class: 'actions' }, button), result, el('p', { class: 'note', 'data-nc': 'audio-status', role: 'status' })));
      input.addEventListener('input', decorate);
      show(result, last);
    }
    const found = devices.find((d) => d.name === input.value.trim());
    const about = form.querySelector('[data-nc="device-description"]');
    about.textContent = (found && found.description) || '';
    about.hidden = !about.textContent;
    // ~/audio, and the readiness check's word on the mixer (output_muted) when it has one.
    const a = NC.state.audio, ready = (NC.state.alarm && NC.state.alarm.ready) || {};
    const muted = (ready.problems || []).find((p) => p.code === 'output_muted');
    form.querySelector('[data-nc="audio-status"]').textContent = (!a ? '' : a.status === 'ok' ? w('ok', { d: a.device })
      : w('bad', { d: a.device, e: a.error || a.status })) + (muted ? ' ' + w('muted', { m: muted.message }) : '');
  }

  document.addEventListener('nc-settings-drawn', decorate);
  NC.on('audio', decorate);
  NC.on('alarm', decorate);
  fetch('/api/audio/devices', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : [])).then((d) => { devices = d; decorate(); })
    .catch(() => {});
})();
