"""SQL console: read-only queries over the views, results as a table, CSV download."""

import streamlit as st

from dashboards import data

st.title("SQL")
EXAMPLES = {
    "Hands per game": "SELECT variant, source, count(*) AS hands FROM hands GROUP BY ALL ORDER BY ALL",
    "Scoop rate per game": (
        "SELECT variant, avg(scoop::INT) AS scoop_rate FROM hand_outcomes WHERE showdown GROUP BY 1"
    ),
    "Scarney low points": (
        "SELECT low_points, count(*) AS seats FROM players WHERE variant = 'scarney' AND showdown "
        "GROUP BY 1 ORDER BY 1"
    ),
    "Player statistics": "SELECT * FROM player_stats ORDER BY hands DESC LIMIT 20",
}
columns = st.columns(len(EXAMPLES))
for column, (label, text) in zip(columns, EXAMPLES.items(), strict=True):
    if column.button(label):
        st.session_state["sql"] = text
text = st.text_area("Query (one read-only SELECT)", key="sql", height=120,
                    placeholder="SELECT variant, count(*) FROM hands GROUP BY 1")  # fmt: skip
if text.strip():
    frame, error = data.user_query(data.data_path(), text)
    if error:
        st.error(error)
    else:
        st.caption(f"{frame.height:,} rows")
        st.dataframe(frame, hide_index=True, width="stretch")
        st.download_button("Download CSV", frame.write_csv(), file_name="scooplab-query.csv", mime="text/csv")
