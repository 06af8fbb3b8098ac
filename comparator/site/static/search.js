// The Pagefind search box; pages opened from disk can't fetch its index: say so instead.
window.addEventListener("DOMContentLoaded", function () {
  if (location.protocol === "file:") {
    document.getElementById("search-offline").hidden = false;
    return;
  }
  new PagefindUI({ element: "#search", showSubResults: true, showImages: false });
});
