/* A clock style's look, for the face and the style page: its colours' contrast and its font's CSS. */
'use strict';

(() => {
  /* WCAG 2.1 contrast ratio of two #RRGGBB colours. */
  function contrast(a, b) {
    const lum = (hex) => {
      const v = hex.replace('#', '');
      const full = v.length === 3 ? v.split('').map((c) => c + c).join('') : v;
      const c = [0, 2, 4].map((i) => parseInt(full.substr(i, 2), 16) / 255)
        .map((x) => (x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4)));
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const la = lum(a), lb = lum(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }
  /* The CSS for a ClockStyle's font. */
  function font(st) {
    const weights = { ultra_light: 100, thin: 200, light: 300, regular: 400, medium: 500, semibold: 600, bold: 700, heavy: 800, black: 900 };
    const families = {
      san_francisco: '"SF Pro Display", -apple-system, BlinkMacSystemFont, "Helvetica Neue", Helvetica, Arial, sans-serif',
      monaco: 'Monaco, Menlo, "DejaVu Sans Mono", Consolas, "Liberation Mono", monospace',
      courier: '"Courier New", Courier, "Liberation Mono", "Nimbus Mono PS", monospace',
    };
    const designs = {
      default: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif',
      serif: 'ui-serif, "New York", Georgia, "DejaVu Serif", "Noto Serif", serif',
      rounded: 'ui-rounded, "SF Pro Rounded", "Arial Rounded MT Bold", "Nunito", "Quicksand", "Varela Round", system-ui, sans-serif',
      monospaced: 'ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", "Liberation Mono", monospace',
    };
    const family = (st.font_family && st.font_family !== 'system' && families[st.font_family]) || designs[st.font_design] || designs.default;
    return { family, weight: weights[st.font_weight] || 400 };
  }

  Object.assign(NC, { contrast, font });
})();
