/* The settings page's Sound part (v1.3, v1.4): "Play a test chime" tries the speaker chosen in the
   list (settings-controls.js), saved or not (POST /api/audio/test); a line follows ~/audio, the
   device's own error behind Details. Re-added after each redraw of settings.js. */
'use strict';
(() => {
  const { el } = NC;
  const W = {
    en: { test: 'Play a test chime', played: 'Played on {d}: the speaker took the chime.', ok: 'Now playing on {d}.',
      bad: '{d} does not play: choose another speaker above, or check that it is plugged in.', mixer: 'Volume control: {s}, {v} %.',
      on: 'on', off: 'off', no_mixer: 'No volume control to read for this speaker.',
      muted: 'Nothing would be heard: the speaker’s volume is off or muted.', not_played: 'This speaker did not play.' },
    ko: { test: '시험 차임 울리기', played: '{d}에서 울림: 스피커가 차임을 받았습니다.', ok: '지금 {d}에서 재생합니다.',
      bad: '{d}에서 소리가 나지 않습니다: 위에서 다른 스피커를 고르거나 연결을 확인하세요.', mixer: '음량 조절: {s}, {v}%.',
      on: '켜짐', off: '꺼짐', no_mixer: '이 스피커에는 읽을 음량 조절이 없습니다.',
      muted: '아무것도 들리지 않습니다: 스피커 음량이 꺼졌거나 음소거되어 있습니다.', not_played: '이 스피커에서 재생되지 않았습니다.' },
  };
  const w = (k, v) => Object.entries(v || {}).reduce((s, [a, b]) => s.replace('{' + a + '}', b), (W[NC.lang()] || W.en)[k]);
  let last = null; // the last test's answer, shown again after a redraw

  function show(box, a) {
    box.textContent = '';
    if (!a) return;
    box.dataset.ok = String(!!a.ok);
    if (!a.ok) {
      box.append(el('span', { class: 'error', text: w('not_played') }), el('details', { class: 'why' },
        el('summary', { text: SettingsControls.w('details') }), el('p', { text: (a.error && a.error.message) || '' })));
      return;
    }
    const r = a.result, m = r.mixer;
    box.append(w('played', { d: r.device }), ' ', el('span', { 'data-nc': 'audio-mixer', text: !m ? w('no_mixer')
      : w('mixer', { s: w(m.switched_on === false ? 'off' : 'on'), v: m.volume_percent ?? '—' })
        + (m.muted ? ' ' + w('muted') : '') }));
  }

  function decorate() {
    const form = document.querySelector('[data-nc="setting"][data-key="audio.device"]');
    if (!form) return;
    const input = form.querySelector('select');
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
      form.querySelector('.edit').append(button);
      form.append(el('div', { class: 'sound-extra' }, result,
        el('div', { class: 'note', 'data-nc': 'audio-status', role: 'status' })));
      show(result, last);
    }
    // ~/audio, and the readiness check's word on the mixer (output_muted) when it has one; the
    // device's own error only behind Details.
    const a = NC.state.audio, ready = (NC.state.alarm && NC.state.alarm.ready) || {};
    const muted = (ready.problems || []).find((p) => p.code === 'output_muted');
    const status = form.querySelector('[data-nc="audio-status"]');
    const named = (d) => (input.querySelector(`option[value="${CSS.escape(d)}"]`) || {}).textContent || d;
    status.textContent = !a ? '' : a.status === 'ok' ? w('ok', { d: named(a.device) }) : w('bad', { d: named(a.device) });
    if (muted) status.append(' ' + w('muted'));
    const detail = [a && a.status !== 'ok' ? a.error || a.status : '', muted ? muted.message : ''].filter(Boolean).join(' · ');
    if (detail) status.append(el('details', { class: 'why' }, el('summary', { text: SettingsControls.w('details') }), el('p', { text: detail })));
  }

  document.addEventListener('nc-settings-drawn', decorate);
  NC.on('audio', decorate);
  NC.on('alarm', decorate);
})();
