/* The noise page's own script (noise.html): served as a file, the pages allow no inline script (CSP). */
'use strict';
NP.mixes(document.getElementById('mixes'));
(() => {
  const { el, t, $ } = NC;
  NC.topbar('noise');
  NC.audioNotice();
  const CHOICES = [0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 480];
  function draw() {
    const n = NC.state.noise;
    if (!n) return;
    // v1.4: asked to play but the sound device does not play: never "Playing" (error audio_unavailable: ...).
    const unheard = n.playing && typeof n.error === 'string' && n.error.startsWith('audio_unavailable');
    $('#status').textContent = t(unheard ? 'not_heard' : n.playing ? 'playing' : 'stopped');
    const toggle = $('#toggle');
    toggle.textContent = t(n.playing ? 'stop' : 'play');
    toggle.setAttribute('aria-pressed', String(!!n.playing));
    $('#stops').textContent = n.stops_at ? t('stops_at', { t: NC.clockOf(n.stops_at) }) : '';
    // v1.3: a station's current title while it plays.
    $('#now').textContent = n.playing && n.title ? t('now_playing') + ': ' + n.title : '';
    const radio = document.querySelector(`#sounds input[value="${CSS.escape(n.sound)}"]`);
    if (radio) radio.checked = true;
    if (document.activeElement !== $('#volume')) { $('#volume').value = n.volume; $('#volume-out').value = n.volume; }
    const timer = $('#timer');
    const minutes = n.sleep_timer_minutes || 0;
    timer.textContent = '';
    const values = CHOICES.includes(minutes) ? CHOICES : CHOICES.concat([minutes]).sort((a, b) => a - b);
    values.forEach((m) => timer.append(el('option', { value: m, text: m ? t('minutes', { n: m }) : t('no_timer') })));
    timer.value = String(minutes);
  }
  function drawSounds() {
    const s = NC.state.sounds;
    if (!s) return;
    const box = $('#sounds');
    box.querySelectorAll('label').forEach((l) => l.remove());
    // v1.3: the radio stations after the mixes (~/sounds `radio`).
    (s.noise || []).concat(s.radio || []).forEach((x) => box.append(el('label', {},
      el('input', { type: 'radio', name: 'sound', value: x.id }),
      // The catalog's names in the page's language while unchanged; a mix's, a station's or a file's name is the owner's.
      el('span', {}, NC.soundName(x), el('small', { text: NC.t('cat_' + x.category) === 'cat_' + x.category ? x.category : NC.t('cat_' + x.category) })))));
    draw();
  }
  $('#toggle').addEventListener('click', async () => {
    const playing = NC.state.noise && NC.state.noise.playing;
    NC.report($('#toggle-error'), await NC.post('noise/set', playing ? 'OFF' : 'ON'));
  });
  $('#sounds').addEventListener('change', async (e) => {
    NC.report($('#sound-error'), await NC.post('noise/sound/set', e.target.value));
  });
  $('#preview').addEventListener('click', async () => {
    const chosen = document.querySelector('#sounds input:checked');
    NC.report($('#sound-error'), await NC.post('noise/preview', chosen ? chosen.value : ''));
  });
  $('#volume').addEventListener('input', () => { $('#volume-out').value = $('#volume').value; });
  $('#volume').addEventListener('change', async () => {
    NC.report($('#volume-error'), await NC.post('noise/volume/set', $('#volume').value));
  });
  $('#timer').addEventListener('change', async () => {
    NC.report($('#timer-error'), await NC.post('noise/sleep_timer/set', $('#timer').value));
  });
  NC.on('noise', draw);
  NC.on('sounds', drawSounds);
  NC.on('style', draw);
  NC.start();
})();
