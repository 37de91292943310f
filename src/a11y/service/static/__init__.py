"""The dashboard's files (``a11y.service.dashboard``): ``dashboard.css`` and
``js/dashboard.js``, package data served at ``/static/``; a package so that
``cdpdriver.scripts.load_script`` reads the script like every other page-side script."""
