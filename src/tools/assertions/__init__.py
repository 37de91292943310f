"""What the test_ tools are made of, apart from their declarations (``namespaces/testing.py``).

A failed check is a normal result (``passed: false`` with what was actually
seen), never a tool error: an agent testing a page needs the verdict, not an
exception. ``polling`` waits for a condition, ``checks`` turns what was seen
into a verdict, ``report`` logs every check for ``test_get_report``,
``locators`` builds robust locators and ``selectors`` validates CSS selectors;
``urls`` is the URL pattern language shared with ``workflow_login``.
"""
