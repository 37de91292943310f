// Function expression (part), called once when the checks are configured: returns the matches
// (node, virtualNode) or the evaluate (node, options, virtualNode) of a11y-input-purpose. The
// matches take an enabled, editable field exposed to assistive technology that asks for
// information about the user: its accessible name is one of the usual English labels of a
// purpose WCAG lists (email, name, telephone, address, postcode, password, ...), or its type is
// email, tel or password, and neither its name nor its group's legend says the information is
// someone else's (a friend's email, an emergency contact). A label that names something else
// as often as a person (Name, Address, Town, Country, Postcode, Company, Username) counts only
// in a form that also asks for one that cannot (an email, a telephone number, a first or last
// name, a birth date, a password, a card number). The evaluate answers true when the
// field has an autocomplete token, undefined when it is "on" or "off" (for the field or its
// form), false when it has none.
/* global axe */
(function (part) {
  const { dom, text } = axe.commons;
  // [token, label, whether the label alone says it is about a person]
  const PURPOSES = [
    ['email', /^e-?mail(?: address)?$/, true],
    ['given-name', /^(?:first|given) name$|^forename$/, true],
    ['family-name', /^(?:last|family) name$|^surname$/, true],
    ['name', /^(?:full )?name$/, false],
    ['tel', /^(?:(?:mobile|cell|home|work|contact) )?(?:tele)?phone(?: number)?$|^mobile(?: number)?$/, true],
    ['postal-code', /^(?:post(?:al)? ?code|zip(?: ?code)?|postcode)$/, false],
    ['address-line2', /^address line 2$/, false],
    ['street-address', /^(?:street |home |postal )?address(?: line 1)?$/, false],
    ['address-level2', /^(?:town|city|town or city|city or town)$/, false],
    ['country-name', /^country(?: or region)?$/, false],
    ['bday', /^(?:date of birth|birthday|birth date)$/, true],
    ['username', /^(?:user ?name|login)$/, false],
    ['new-password', /^(?:new|confirm|repeat) password$/, true],
    ['current-password', /^(?:current )?password$/, true],
    ['organization', /^(?:company|organi[sz]ation)(?: name)?$/, false],
    ['cc-number', /^(?:(?:credit|debit) )?card number$/, true],
  ];
  const TYPED = { email: 'email', tel: 'tel', password: 'current-password' };
  // Words that make the information someone else's, not the user's own.
  const OTHERS = /\b(?:friend|friends|recipient|their|his|her|child|children|guest|partner|spouse|emergency|beneficiary|kin|someone|referee|employer|manager|colleague|other person)\b/i;
  const EDITABLE = ['', 'text', 'email', 'tel', 'password'];
  const label = (virtualNode) => text.accessibleTextVirtual(virtualNode).toLowerCase()
    .replace(/\((?:required|optional|mandatory)\)|\*/g, ' ').replace(/[:.]/g, ' ')
    .replace(/^\s*your\s+/, '').replace(/\s+/g, ' ').trim();
  const group = (node) => {
    const fieldset = node.closest('fieldset');
    const legend = fieldset && fieldset.querySelector(':scope > legend');
    const labelled = node.closest('[role="group"][aria-label], [role="group"][aria-labelledby]');
    return [legend ? legend.textContent : '', labelled ? labelled.getAttribute('aria-label') || '' : ''].join(' ');
  };
  // [token, personal] of a field, or null.
  const purposeOf = (node, virtualNode) => {
    if (!['input', 'select', 'textarea'].includes(node.localName)) return null;
    const type = (node.getAttribute('type') || '').toLowerCase();
    if (node.localName === 'input' && !EDITABLE.includes(type)) return null;
    if (!virtualNode) return null;
    const name = label(virtualNode);
    if (OTHERS.test(name) || OTHERS.test(group(node))) return null;
    const found = PURPOSES.find(([, words]) => words.test(name));
    if (found) return [found[0], found[2]];
    return node.localName === 'input' && TYPED[type] ? [TYPED[type], true] : null;
  };
  const personalForm = (node) => {
    const fields = node.form ? Array.from(node.form.elements) : Array.from(document.querySelectorAll('input, select, textarea'));
    return fields.some((field) => {
      if (field === node) return false;
      const purpose = purposeOf(field, axe.utils.getNodeFromTree(field));
      return purpose !== null && purpose[1];
    });
  };
  const matches = function (node, virtualNode) {
    if (node.disabled || node.readOnly || !dom.isVisibleToScreenReaders(virtualNode)) return false;
    const purpose = purposeOf(node, virtualNode);
    return purpose !== null && (purpose[1] || personalForm(node));
  };
  const evaluate = function (node, options, virtualNode) {
    const purpose = (purposeOf(node, virtualNode) || ['a personal detail'])[0];
    this.data({ purpose });
    const own = (node.getAttribute('autocomplete') || '').trim().toLowerCase();
    if (own && own !== 'on' && own !== 'off') return true;
    const form = node.form;
    const inherited = own || (form && (form.getAttribute('autocomplete') || '').trim().toLowerCase()) || '';
    if (inherited === 'on' || inherited === 'off') {
      this.data({ purpose, setting: inherited });
      return undefined;
    }
    return false;
  };
  return part === 'matches' ? matches : evaluate;
})
