/* The settings page's Sound section (v1.3), beside settings.js: the audio.device field suggests the
   machine's playback devices with their descriptions (GET /api/audio/devices), "Play a test chime"
   plays one second on the device in the field, saved or not (POST /api/audio/test), and a line
   says whether the device plays now (~/audio) and what its mixer said after a chime. settings.js
   redraws its rows after each answer and says so ('nc-settings-drawn'); this adds its part again. */
'use strict';
(() => {
  const { el } = NC;
  const WORDS = {
    en: {
      test: 'Play a test chime', testing: 'Playing…', played: 'Played on {d}: the device took the chime.',
      output_ok: 'Sound output: {d} plays.', output_bad: 'Sound output: {d} does not open ({e}).',
      mixer: 'Mixer: {c} {s}, volume {v} %.', mixer_on: 'on', mixer_off: 'off', no_mixer: 'No mixer to read for this device.',
      muted: 'Nothing would be heard: {m}.',
    },
    ko: {
      test: '시험 차임 울리기', testing: '울리는 중…', played: '{d}에서 울림: 장치가 차임을 받았습니다.',
      output_ok: '소리 출력: {d} 재생 중.', output_bad: '소리 출력: {d}를 열 수 없음 ({e}).',
      mixer: '믹서: {c} {s}, 음량 {v}%.', mixer_on: '켜짐', mixer_off: '꺼짐', no_mixer: '이 장치에는 읽을 믹서가 없습니다.',
      muted: '아무것도 들리지 않습니다: {m}.',
    },
  };
  function w(key, vars) {
    let s = (WORDS[NC.lang()] || WORDS.en)[key] || WORDS.en[key] || key;
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  let devices = [];
  let last = null; // the last test's answer, shown again after a redraw

  async function loadDevices() {
    try {
      const r = await fetch('/api/audio/devices', { cache: 'no-store' });
      if (r.ok) devices = await r.json();
    } catch (e) { devices = []; }
    decorate();
  }

  function outputLine() {
    const a = NC.state.audio;
    if (!a || !a.device) return '';
    return a.status === 'ok' ? w('output_ok', { d: a.device }) : w('output_bad', { d: a.device, e: a.error || a.status });
  }

  function showResult(box, answer) {
    box.textContent = '';
    if (!answer) return;
    box.dataset.ok = String(!!answer.ok);
    if (!answer.ok) { box.append(el('span', { class: 'error', text: (answer.error && answer.error.message) || 'error' })); return; }
    const r = answer.result || {};
    box.append(el('span', { text: w('played', { d: r.device }) }));
    const m = r.mixer;
    const said = !m ? w('no_mixer') : w('mixer', { c: m.control, s: w(m.switched_on === false ? 'mixer_off' : 'mixer_on'),
      v: m.volume_percent === null ? '—' : m.volume_percent }) + (m.muted ? ' ' + w('muted', { m: m.muted }) : '');
    box.append(' ', el('span', { 'data-nc': 'audio-mixer', text: said }));
  }

  /* The audio.device row: its suggestions, the description of the name in the field, the test. */
  function decorate() {
    const form = document.querySelector('[data-nc="setting"][data-key="audio.device"]');
    if (!form) return;
    const input = form.querySelector('input');
    let list = document.getElementById('audio-devices');
    if (!list) { list = el('datalist', { id: 'audio-devices' }); document.body.append(list); }
    list.textContent = '';
    devices.forEach((d) => list.append(el('option', { value: d.name, label: d.description || d.name })));
    if (input) input.setAttribute('list', 'audio-devices');
    let box = form.querySelector('.sound-extra');
    if (!box) {
      const about = el('p', { class: 'note', 'data-nc': 'device-description' });
      const status = el('p', { class: 'note', 'data-nc': 'audio-status', role: 'status' });
      const result = el('p', { class: 'note', 'data-nc': 'audio-test-result', role: 'status' });
      const button = el('button', { type: 'button', class: 'btn', 'data-nc': 'audio-test', text: w('test') });
      button.addEventListener('click', async () => {
        button.disabled = true;
        result.textContent = w('testing');
        delete result.dataset.ok;
        const name = input && !input.disabled ? input.value.trim() : '';
        last = await NC.post('audio/test', name ? { device: name } : '');
        button.disabled = false;
        showResult(result, last);
      });
      box = el('div', { class: 'sound-extra' }, about, el('div', { class: 'actions' }, button), result, status);
      form.append(box);
      if (input) input.addEventListener('input', () => describe(form));
      showResult(result, last);
    }
    describe(form);
    form.querySelector('[data-nc="audio-status"]').textContent = outputLine();
  }

  function describe(form) {
    const input = form.querySelector('input');
    const found = input && devices.find((d) => d.name === input.value.trim());
    const about = form.querySelector('[data-nc="device-description"]');
    about.textContent = found && found.description ? found.description : '';
    about.hidden = !about.textContent;
  }

  document.addEventListener('nc-settings-drawn', decorate);
  NC.on('audio', decorate);
  loadDevices(); // settings.js starts the page (NC.start) and draws the rows
})();
