// Function expression (this = element): scrolls it into view (centred when needed); returns nothing.
function () {
  if (this.scrollIntoViewIfNeeded) this.scrollIntoViewIfNeeded(true);
  else this.scrollIntoView({block: 'center', inline: 'center'});
}
