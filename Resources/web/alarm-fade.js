/* How an alarm fades in, in minutes, as a phone's clock app offers it: a named gentle default
   (the alarm form and the first-start wizard share it). ramp_seconds is what the node takes. */
'use strict';
const AlarmFade = {
  gentle: 120,
  choices: [0, 60, 120, 300, 600, 900],
  words: {
    en: { label: 'Fade in', off: 'Off: full volume at once', gentle: 'Gentle · 2 min', minutes: '{n} min', seconds: '{n} s' },
    ko: { label: '점점 크게', off: '끔: 처음부터 최대 음량', gentle: '부드럽게 · 2분', minutes: '{n}분', seconds: '{n}초' },
  },
  /* The words for `seconds` in the page's language. */
  name(seconds) {
    const w = AlarmFade.words[NC.lang()] || AlarmFade.words.en;
    if (seconds === 0) return w.off;
    if (seconds === AlarmFade.gentle) return w.gentle;
    return seconds % 60 === 0 ? w.minutes.replace('{n}', seconds / 60) : w.seconds.replace('{n}', seconds);
  },
  /* Fills `select` with the choices (and `current`, when it is none of them), `current` chosen. */
  fill(select, current) {
    const values = AlarmFade.choices.includes(current) || current === undefined ? AlarmFade.choices
      : AlarmFade.choices.concat([current]).sort((a, b) => a - b);
    select.replaceChildren(...values.map((s) => NC.el('option', { value: String(s), text: AlarmFade.name(s) })));
    select.value = String(current === undefined ? AlarmFade.gentle : current);
  },
  label() { return (AlarmFade.words[NC.lang()] || AlarmFade.words.en).label; },
};
