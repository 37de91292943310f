// Function expression (original), an override of axe's aria-prohibited-attr check: returns its
// evaluate, which also finds the ARIA 1.3 braille properties and aria-roledescription where the
// element's role prohibits them (axe knows them as global properties but prohibits only
// aria-label and aria-labelledby): aria-braillelabel wherever aria-label is prohibited, and
// aria-roledescription or aria-brailleroledescription on an element without a meaningful role
// (generic, no role, or none/presentation that no other global property or focusability
// overrides). Like axe: true (a failure) when the element has no text, undefined (needs review)
// when its text still conveys it.
/* global axe */
(function (original) {
  const { aria, dom, standards, text } = axe.commons;
  const ROLES = axe._audit.standards.ariaRoles;
  const BRAILLE_LABEL = 'aria-braillelabel';
  const DESCRIPTIONS = ['aria-roledescription', 'aria-brailleroledescription'];
  const NEW = [BRAILLE_LABEL].concat(DESCRIPTIONS);
  const PRESENTATIONAL = ['none', 'presentation'];
  const present = (virtualNode, name) =>
    virtualNode.attrNames.includes(name) && text.sanitize(virtualNode.attr(name) || '') !== '';
  // none/presentation holds unless focusability or a global property it allows overrides it
  // (the properties it prohibits cannot: they are ignored).
  const role = (node, virtualNode, allowedLabel) => {
    const explicit = aria.getExplicitRole(virtualNode);
    if (PRESENTATIONAL.includes(explicit)) {
      const globals = standards.getGlobalAriaAttrs();
      const ignored = ['aria-label', 'aria-labelledby'].concat(NEW);
      const overridden = dom.isFocusable(virtualNode) ||
        globals.some((name) => !ignored.includes(name) && present(virtualNode, name));
      if (!overridden) return 'none';
    }
    const computed = aria.getRole(virtualNode, { chromium: true });
    return computed === null && allowedLabel.includes(virtualNode.props.nodeName) ? 'allowed' : computed;
  };
  const prohibitedFor = (name) => {
    const spec = ROLES[name];
    if (name === null || name === 'generic' || PRESENTATIONAL.includes(name)) return NEW;
    return spec && (spec.prohibitedAttrs || []).includes('aria-label') ? [BRAILLE_LABEL] : [];
  };
  return function (node, options, virtualNode) {
    const verdict = original.call(this, node, options, virtualNode);
    if (verdict !== false || !NEW.some((name) => present(virtualNode, name))) return verdict;
    const name = role(node, virtualNode, (options && options.elementsAllowedAriaLabel) || []);
    const prohibited = prohibitedFor(name).filter((attr) => present(virtualNode, attr));
    if (!prohibited.length) return verdict;
    let messageKey = virtualNode.hasAttr('role') ? 'hasRole' : 'noRole';
    messageKey += prohibited.length > 1 ? 'Plural' : 'Singular';
    this.data({ role: name === 'allowed' ? null : name, nodeName: virtualNode.props.nodeName, messageKey, prohibited });
    return text.sanitize(text.subtreeText(virtualNode, { subtreeDescendant: true })) !== '' ? undefined : true;
  };
})
