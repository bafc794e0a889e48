"""Doctest collection over the packages: the dashboard's pages and its entry script run Streamlit
calls when imported (they are scripts the server runs), so they are not collected."""

collect_ignore_glob = ["dashboards/app.py", "dashboards/screens/*.py"]
