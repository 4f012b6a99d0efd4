/**
 * dependency-cruiser rules for web/src (issue 47): screens → components → core → api, each screen in its
 * own folder, the guest's phone app beside the screens. Paths are relative to the repository's root.
 */
module.exports = {
  forbidden: [
    {
      name: 'web-no-circular',
      severity: 'error',
      comment:
        'A web module reaches itself through its imports: move what both sides need into a module of its own ' +
        '(lower down), or hand it in as a function or a prop.',
      from: { path: '^web/src/' },
      to: { circular: true },
    },
    {
      name: 'web-core-not-to-ui',
      severity: 'error',
      comment:
        'web/src/core/ and web/src/api/ are the plumbing every screen uses: they import no component, screen ' +
        'or guest page. Pass what they need in (a callback, a store), or move the code up to the UI.',
      from: { path: '^web/src/(core|api)/' },
      to: { path: '^web/src/(components|screens|guest)/' },
    },
    {
      name: 'web-api-not-to-core',
      severity: 'error',
      comment:
        'web/src/api/ is the lowest layer (the typed HTTP client and its state): it imports nothing of core/. ' +
        'Put what both need in api/, or the code that needs core/ in core/.',
      from: { path: '^web/src/api/' },
      to: { path: '^web/src/core/' },
    },
    {
      name: 'web-components-not-to-screens',
      severity: 'error',
      comment:
        'A component is shared by screens, so it imports none of them: move what it needs from a screen into ' +
        'the component (or a component beside it), or pass it in as a prop.',
      from: { path: '^web/src/components/' },
      to: { path: '^web/src/(screens|guest)/' },
    },
    {
      name: 'web-screen-not-to-other-screen',
      severity: 'error',
      comment:
        'A screen imports only its own folder: what two screens share is a component (web/src/components/) ' +
        'or plumbing (web/src/core/); move it there.',
      from: { path: '^web/src/screens/([^/]+)/' },
      to: { path: '^web/src/screens/', pathNot: '^web/src/screens/$1/' },
    },
    {
      name: 'web-guest-not-to-screens',
      severity: 'error',
      comment:
        "The guest's phone app (its own bundle) imports components, core and api, never a staff screen: move " +
        'what it shares with a screen into web/src/components/.',
      from: { path: '^web/src/guest/' },
      to: { path: '^web/src/screens/' },
    },
  ],
};
