// Function expression (node, virtualNode), the matches of a11y-judge-image-text: returns true
// for a visible element that renders an image resource: a loaded img, an image button, an svg
// image element, an object showing an image, or any element with a url() background image.
/* global axe */
(function (node, virtualNode) {
  const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif|bmp|svg)(\?|#|$)/i;
  const renders = () => {
    const name = node.localName;
    if (name === 'img') return node.complete && node.naturalWidth > 0;
    if (name === 'input') return (node.getAttribute('type') || '').toLowerCase() === 'image';
    if (name === 'image' && node.namespaceURI === 'http://www.w3.org/2000/svg') return true;
    if (name === 'object') {
      return (node.type || '').toLowerCase().startsWith('image/') || IMAGE_FILE.test(node.getAttribute('data') || '');
    }
    return /url\(/.test(window.getComputedStyle(node).backgroundImage || '');
  };
  return renders() && axe.commons.dom.isVisibleOnScreen(virtualNode);
})
