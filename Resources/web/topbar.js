/* The settings pages' frame: the top bar, the "Set up this clock" link and the notice under the
   title while nothing is heard. */
'use strict';

(() => {
  const { state, on, t, el, $, detailed } = NC;

  /* The settings pages' top bar: one link per page, the current one marked. */
  function topbar(current) {
    const pages = [['/', 'clock'], ['/alarms', 'alarms'], ['/noise', 'noise'], ['/radio', 'radio'], ['/style', 'style'], ['/device', 'device'],
      ['/routines', 'routines'], ['/timers', 'timers'], ['/settings', 'settings']];
    const nav = el('nav', { 'aria-label': 'NoiseClock' }, pages.map(([href, key]) =>
      el('a', { href, 'data-i18n': key, 'aria-current': key === current ? 'page' : null, text: t(key) })));
    document.body.prepend(el('header', { class: 'topbar' }, nav));
    setupLink(document.querySelector('main'), (link) => document.querySelector('main').prepend(link));
  }
  /* Until the first-start wizard is finished once (node.setup_done, v1.4): "Set up this clock", a link to /setup. */
  function setupLink(root, place) {
    if (location.pathname === '/setup') return null;
    const link = el('a', { class: 'setup-link', href: '/setup', 'data-nc': 'setup', 'data-i18n': 'set_up', hidden: true, text: t('set_up') });
    place(link);
    on('node', (node) => { link.hidden = !(node && node.setup_done === false); });
    return link;
  }
  /* A notice under the page's title while ~/audio says there is no sound output (nothing is heard). */
  function audioNotice() {
    const box = el('div', { class: 'notice', id: 'audio-notice', role: 'status', hidden: true });
    const h1 = $('main h1');
    h1.after(box);
    const draw = () => {
      const a = state.audio;
      box.hidden = !(a && a.status === 'unavailable');
      if (box.hidden) return;
      box.textContent = '';
      // The raw ALSA error only behind "Details": a person reads what it means and where to fix it.
      detailed(box, [el('b', { text: t('no_sound') }), ': ' + t('nothing_heard')], ['/settings#h-s_sound', t('choose_speaker')],
        (a.device ? a.device + ': ' : '') + (a.error || ''));
    };
    on('audio', draw);
    on('node', draw);
  }

  Object.assign(NC, { topbar, setupLink, audioNotice });
})();
