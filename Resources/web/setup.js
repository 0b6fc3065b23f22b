/* The first-start wizard (setup.html, http-api v1.4): language, time zone, speaker, broker, a first
   alarm, done. One step at a time (its name in the address: /setup#speaker); each saves a choice at
   once and says what it did, and each can be skipped. Finish is POST /api/setup/done. */
'use strict';
(() => {
  const { el, $ } = NC;
  NC.topbar(null);
  const w = (key, vars) => {
    let s = (SetupWords[NC.lang()] || SetupWords.en)[key] || SetupWords.en[key] || key;
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  };
  const names = SetupSteps.map(([name]) => name);
  const ctx = { w, settings: {}, log: [], changed: false };
  let index = Math.max(0, names.indexOf(location.hash.slice(1)));

  /* The line above the step: what the last choice did (kept when the wizard moves on). */
  ctx.say = (text, ok, detail) => {
    const said = $('#said');
    said.textContent = '';
    NC.detailed(said, text, null, detail);
    said.dataset.ok = String(ok !== false);
  };
  /* A choice the node refused: "Not saved" and why, in the page's words (the node's own behind Details). */
  ctx.refused = (error) => ctx.say(w('failed', { e: NodeReplies.words(error) }), false, NodeReplies.detail(error));
  /* A step saved its choice: say so (as a warning when it may not work), remember it for the summary, go on. */
  ctx.done = (text, warning) => {
    ctx.say(text, !warning);
    ctx.log.push(text);
    go(index + 1);
  };

  function go(to) {
    index = Math.min(Math.max(0, to), names.length - 1);
    ctx.changed = false;
    if (location.hash.slice(1) !== names[index]) history.replaceState(null, '', '#' + names[index]);
    draw();
    // The new step from its top, the line saying what was just done above it.
    window.scrollTo(0, 0);
    const title = $('#step-title');
    if (title) title.focus({ preventScroll: true });
  }

  function draw() {
    const [name, build] = SetupSteps[index];
    document.title = 'NoiseClock · ' + w('title');
    $('#setup-title').textContent = w('title');
    $('#progress').textContent = w('progress', { n: index + 1, m: names.length, s: w('s_' + name) });
    const step = $('#step');
    step.dataset.step = name;
    step.replaceChildren(el('h2', { id: 'step-title', tabindex: '-1', text: w('s_' + name) }), ...build(ctx).filter(Boolean));
    $('#back').textContent = w('back');
    $('#back').hidden = index === 0;
    const last = index === names.length - 1;
    $('#forward').hidden = last;
    $('#forward').textContent = w('skip');
  }

  $('#back').addEventListener('click', () => go(index - 1));
  $('#forward').addEventListener('click', () => { ctx.say(w('skipped'), true); go(index + 1); });
  window.addEventListener('hashchange', () => { const to = names.indexOf(location.hash.slice(1)); if (to >= 0 && to !== index) go(to); });

  let drawnIn = null;
  NC.on('node', () => {
    if (drawnIn === NC.lang()) return;
    drawnIn = NC.lang();
    draw();
  });
  fetch('/api/settings', { cache: 'no-store' }).then((r) => r.json()).then((s) => { ctx.settings = s; if (names[index] === 'broker') draw(); })
    .catch(() => {});
  draw();
  NC.start();
})();
